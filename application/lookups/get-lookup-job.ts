import type { Clock } from '../ports/clock.js';
import type { LookupJobKind, LookupJobReadModel, LookupJobView } from './lookup-job-view.js';

/**
 * Polling of info and client-download jobs: the read model, or the job's
 * stream when the projector has not reached it yet. A job of another account,
 * or one past its lifetime, reads as missing (its events stay for auditors).
 */
export class GetLookupJob {
  constructor(
    private readonly kind: LookupJobKind,
    private readonly readModel: LookupJobReadModel,
    private readonly loadFromStream: (jobId: string) => Promise<LookupJobView | null>,
    private readonly clock: Clock,
  ) {}

  async execute(accountId: string, jobId: string): Promise<LookupJobView | null> {
    const view = (await this.readModel.get(this.kind, jobId)) ?? (await this.loadFromStream(jobId));
    if (view === null || view.accountId !== accountId) return null;
    return Date.parse(view.expiresAt) > this.clock.now().getTime() ? view : null;
  }
}
