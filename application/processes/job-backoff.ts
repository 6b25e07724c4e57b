import type { Clock } from '../ports/clock.js';

/**
 * Jobs whose processing failed, each left alone for a while that doubles with
 * every failure in a row (from `baseMs` up to `maxMs`), so one job that keeps
 * failing is retried now and then without holding up the others.
 */
export class JobBackoff {
  private readonly failures = new Map<string, { count: number; retryAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly options: { baseMs: number; maxMs: number },
  ) {}

  /** Records a failure; returns how long the job is now left alone, in ms. */
  failed(jobId: string): number {
    const count = (this.failures.get(jobId)?.count ?? 0) + 1;
    const delay = Math.min(this.options.maxMs, this.options.baseMs * 2 ** Math.min(count - 1, 30));
    this.failures.set(jobId, { count, retryAt: this.clock.now().getTime() + delay });
    return delay;
  }

  succeeded(jobId: string): void {
    this.failures.delete(jobId);
  }

  /** The jobs to leave alone now. */
  waiting(): string[] {
    const now = this.clock.now().getTime();
    return [...this.failures].filter(([, { retryAt }]) => retryAt > now).map(([jobId]) => jobId);
  }
}
