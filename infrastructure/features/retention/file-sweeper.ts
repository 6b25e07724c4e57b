import type { ExclusiveLock } from '../../../application/ports/exclusive-lock.js';
import type { Logger } from '../../../application/ports/logger.js';
import type { SweepExpiredFiles } from '../../../application/processes/sweep-expired-files.js';
import { sleep } from '../../system/sleep.js';
import { BackgroundLoop } from '../../system/background-loop.js';
import { whileHoldingLock } from '../../system/while-holding-lock.js';

/**
 * The sweeper role: one instance of the deployment sweeps at a time (the
 * others wait on the lock and take over when its holder dies), every
 * `intervalMs`. Only the back-off of jobs whose deletion failed is kept in
 * memory between passes, so a restart picks up where the read model says
 * (and tries those jobs again at once).
 */
export class FileSweeper extends BackgroundLoop {
  constructor(
    private readonly lock: ExclusiveLock,
    private readonly sweeper: SweepExpiredFiles,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {
    super();
  }

  protected run(stop: AbortSignal): Promise<void> {
    return whileHoldingLock(this.lock, stop, async (active) => {
      while (!active.aborted) {
        try {
          await this.sweeper.sweep(active);
        } catch (error) {
          this.logger.warn({ err: error }, 'file sweep failed; trying again at the next pass');
        }
        await sleep(this.intervalMs, active);
      }
    });
  }
}
