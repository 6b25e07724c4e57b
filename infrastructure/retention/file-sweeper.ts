import type { ExclusiveLock } from '../../application/ports/exclusive-lock.js';
import type { Logger } from '../../application/ports/logger.js';
import type { SweepExpiredFiles } from '../../application/processes/sweep-expired-files.js';
import { sleep } from '../../projections/sleep.js';

/**
 * The sweeper role: one instance of the deployment sweeps at a time (the
 * others wait on the lock and take over when its holder dies), every
 * `intervalMs`. Only the back-off of jobs whose deletion failed is kept in
 * memory between passes, so a restart picks up where the read model says
 * (and tries those jobs again at once).
 */
export class FileSweeper {
  private stopController: AbortController | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly lock: ExclusiveLock,
    private readonly sweeper: SweepExpiredFiles,
    private readonly logger: Logger,
    private readonly intervalMs: number,
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
      const active = AbortSignal.any([stop, held.lost]);
      try {
        while (!active.aborted) {
          try {
            await this.sweeper.sweep(active);
          } catch (error) {
            this.logger.warn({ err: error }, 'file sweep failed; trying again at the next pass');
          }
          await sleep(this.intervalMs, active);
        }
      } finally {
        await held.release();
      }
    }
  }
}
