import type { LookupFeature } from '../../domain/account/lookups.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { LookupJobSteps } from '../lookups/lookup-job-steps.js';
import { LISTING_SETTLE_RETRY } from '../lookups/retry-through-outage.js';
import type { Clock } from '../ports/clock.js';
import { workContext } from './work-context.js';
import { DONE, type WorkOutcome } from './work-outcome.js';
import type { JobMessage } from './work-routing.js';

/** The lookups that run as jobs with a stream of their own. */
export type LookupJobFeature = Exclude<LookupFeature, 'channel_list'>;

export interface ReleaseOrphanedLookupOptions {
  graceMs: number;
  /** How long a synchronous channel listing may still be running after its reservation. */
  listingTimeoutMs: number;
  /** The job streams of info and client-download lookups. */
  jobs: Record<LookupJobFeature, Pick<LookupJobSteps<unknown>, 'load' | 'abandon'>>;
}

/**
 * A lookup's reservation is settled by whoever ran it: the worker for info
 * and client-download jobs, the request itself for a channel listing. When
 * the process dies before it could (between the reservation and the job
 * stream, or in the middle of a listing), the units would stay held: after a
 * grace period such a reservation is released, uncharged.
 *
 * For a job, its stream decides between the releaser and a submission that
 * is only slow, as for downloads: the releaser writes <Kind>Abandoned to it
 * expecting no stream, and releases only once that is written. A submission
 * whose job append comes later then fails, and one that came first keeps its
 * reservation.
 */
export class ReleaseOrphanedLookup {
  constructor(
    private readonly accounts: AccountCommandHandler,
    private readonly clock: Clock,
    private readonly options: ReleaseOrphanedLookupOptions,
  ) {}

  async handle(message: JobMessage): Promise<WorkOutcome> {
    const { state } = await this.accounts.load(message.accountId);
    const lookup = state.pendingLookups?.find((candidate) => candidate.lookupId === message.jobId);
    if (lookup === undefined) return DONE;
    const { lookupId, feature } = lookup;
    const jobs = feature === 'channel_list' ? null : this.options.jobs[feature];
    const status = jobs === null ? null : (await jobs.load(lookupId)).status;
    if (status !== null && status !== 'none' && status !== 'abandoned') return DONE;
    // A listing's request may still be running, then settling through an outage, for this long after its reservation.
    const graceMs =
      this.options.graceMs +
      (feature === 'channel_list' ? this.options.listingTimeoutMs + LISTING_SETTLE_RETRY.withinMs : 0);
    const waited = this.clock.now().getTime() - Date.parse(message.occurredAt);
    if (status !== 'abandoned' && waited < graceMs) return { kind: 'retry', afterMs: graceMs - waited };
    const context = workContext(message);
    const now = this.clock.now().toISOString();
    if (jobs !== null && (await jobs.abandon(lookupId, message.accountId, now, context)) !== 'abandoned') return DONE;
    await this.accounts.handle(message.accountId, { type: 'ReleaseLookup', data: { lookupId, now } }, context);
    return DONE;
  }
}
