import type { ChargeVisibility } from '../accounts/charge-visibility.js';
import type { Clock } from '../ports/clock.js';
import { lookupJobBeforeSettlement } from './lookup-job-before-settlement.js';
import type { LookupJobKind, LookupJobReadModel, LookupJobView } from './lookup-job-view.js';

/**
 * Polling of info and client-download jobs: the read model, or the job's
 * stream when the projector has not reached it yet. A job of another account,
 * or one past its lifetime, reads as missing (its events stay for auditors). A finished
 * job reads as pending until the account's read model shows its charge or release.
 */
export class GetLookupJob {
  constructor(
    private readonly kind: LookupJobKind,
    private readonly readModel: LookupJobReadModel,
    private readonly loadFromStream: (jobId: string) => Promise<LookupJobView | null>,
    private readonly clock: Clock,
    private readonly charges: ChargeVisibility | null = null,
  ) {}

  async execute(accountId: string, jobId: string): Promise<LookupJobView | null> {
    const view = (await this.readModel.get(this.kind, jobId)) ?? (await this.loadFromStream(jobId));
    if (view === null || view.accountId !== accountId) return null;
    if (Date.parse(view.expiresAt) <= this.clock.now().getTime()) return null;
    if (view.status === 'pending' || this.charges === null || (await this.charges.isVisible(accountId, jobId)))
      return view;
    return lookupJobBeforeSettlement(view);
  }
}
