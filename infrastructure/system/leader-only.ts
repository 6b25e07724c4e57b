import type { ExclusiveLock } from '../../application/ports/exclusive-lock.js';
import type { Logger } from '../../application/ports/logger.js';
import { sleep } from './sleep.js';
import { BackgroundLoop } from './background-loop.js';
import { whileHoldingLock } from './while-holding-lock.js';

/** Something started while this process leads, stopped when it no longer does. */
export interface LedWork {
  stop(): Promise<void>;
}

/**
 * Runs background work in one process of the deployment at a time: the
 * process that holds `lock` starts it, the others wait on the lock and take
 * over when the holder stops or dies. Losing the lock stops the work here
 * before the lock is waited for again.
 */
export class LeaderOnly extends BackgroundLoop {
  constructor(
    readonly name: string,
    private readonly lock: ExclusiveLock,
    private readonly begin: () => Promise<LedWork>,
    private readonly logger: Logger,
    /** Pause before leading again after the work failed to start. */
    private readonly retryMs = 5_000,
  ) {
    super();
  }

  protected run(stop: AbortSignal): Promise<void> {
    return whileHoldingLock(this.lock, stop, async (active, lost) => {
      let work: LedWork | null = null;
      try {
        work = await this.begin();
        this.logger.info({ task: this.name }, 'leading: background work started in this process');
        await untilAborted(active);
      } catch (error) {
        this.logger.error({ err: error, task: this.name }, 'background work could not start; trying again');
        await sleep(this.retryMs, stop);
      } finally {
        await work
          ?.stop()
          .catch((error: unknown) =>
            this.logger.warn({ err: error, task: this.name }, 'background work did not stop cleanly'),
          );
      }
      if (lost.aborted && !stop.aborted)
        this.logger.warn({ task: this.name }, 'lost the lead; waiting to take it again');
    });
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
