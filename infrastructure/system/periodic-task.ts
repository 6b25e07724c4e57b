import type { Logger } from '../../application/ports/logger.js';
import { sleep } from '../../projections/sleep.js';

/** Runs `task` every `intervalMs` (after each run ends) until stopped; a failing run is logged and the next one comes as usual. */
export class PeriodicTask {
  private stopController: AbortController | null = null;
  private running: Promise<void> | null = null;

  constructor(
    readonly name: string,
    private readonly intervalMs: number,
    private readonly task: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.running !== null) return;
    const stop = new AbortController();
    this.stopController = stop;
    this.running = (async () => {
      while (!stop.signal.aborted) {
        await sleep(this.intervalMs, stop.signal);
        if (stop.signal.aborted) return;
        try {
          await this.task();
        } catch (error) {
          this.logger.error({ err: error, task: this.name }, 'Periodic task failed; it runs again at its next turn');
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopController?.abort();
    await this.running;
    this.running = null;
  }
}
