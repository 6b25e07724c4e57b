import type { Logger } from '../../application/ports/logger.js';
import { sleep } from './sleep.js';
import { BackgroundLoop } from './background-loop.js';

/** Runs `task` every `intervalMs` (after each run ends) until stopped; a failing run is logged and the next one comes as usual. */
export class PeriodicTask extends BackgroundLoop {
  constructor(
    readonly name: string,
    private readonly intervalMs: number,
    private readonly task: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {
    super();
  }

  protected async run(stop: AbortSignal): Promise<void> {
    while (!stop.aborted) {
      await sleep(this.intervalMs, stop);
      if (stop.aborted) return;
      try {
        await this.task();
      } catch (error) {
        this.logger.error({ err: error, task: this.name }, 'Periodic task failed; it runs again at its next turn');
      }
    }
  }
}
