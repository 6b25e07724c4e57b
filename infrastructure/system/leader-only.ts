import type { ExclusiveLock } from '../../application/ports/exclusive-lock.js';
import type { Logger } from '../../application/ports/logger.js';
import { sleep } from '../../projections/sleep.js';

/** Something started while this process leads, stopped when it no longer does. */
export interface LedWork {
  stop(): Promise<void>;
}

/**
 * Runs background work in one process of the deployment at a time: the
 * process that holds `lock` starts it, the others wait on the lock and take
 * over when the holder stops or dies (its lock connection goes). Losing the
 * lock stops the work here before the lock is waited for again.
 */
export class LeaderOnly {
  private stopController: AbortController | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    readonly name: string,
    private readonly lock: ExclusiveLock,
    private readonly begin: () => Promise<LedWork>,
    private readonly logger: Logger,
    /** Pause before leading again after the work failed to start. */
    private readonly retryMs = 5_000,
  ) {}

  start(): void {
    if (this.loop !== null) return;
    const stop = new AbortController();
    this.stopController = stop;
    this.loop = this.run(stop.signal);
  }

  async stop(): Promise<void> {
    this.stopController?.abort();
    await this.loop;
    this.loop = null;
    this.stopController = null;
  }

  private async run(stop: AbortSignal): Promise<void> {
    while (!stop.aborted) {
      const held = await this.lock.acquire(stop);
      if (held === null) return;
      let work: LedWork | null = null;
      try {
        work = await this.begin();
        this.logger.info({ task: this.name }, 'leading: background work started in this process');
        await untilAborted(AbortSignal.any([stop, held.lost]));
      } catch (error) {
        this.logger.error({ err: error, task: this.name }, 'background work could not start; trying again');
        await sleep(this.retryMs, stop);
      } finally {
        await work?.stop().catch((error: unknown) => this.logger.warn({ err: error, task: this.name }, 'background work did not stop cleanly'));
        await held.release().catch(() => undefined);
      }
      if (held.lost.aborted && !stop.aborted) this.logger.warn({ task: this.name }, 'lost the lead; waiting to take it again');
    }
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
