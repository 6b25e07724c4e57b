import type { LookupFeature } from '../../domain/account/lookups.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { Clock } from '../ports/clock.js';
import { DONE, type WorkOutcome } from './work-outcome.js';
import type { JobMessage } from './work-routing.js';

export interface ReleaseOrphanedLookupOptions {
  graceMs: number;
  /** How long a synchronous channel listing may still be running after its reservation. */
  listingTimeoutMs: number;
  /** Whether the job stream of an info or client-download lookup was written. */
  jobExists(feature: Exclude<LookupFeature, 'channel_list'>, jobId: string): Promise<boolean>;
}

/**
 * A lookup's reservation is settled by whoever ran it: the worker for info
 * and client-download jobs, the request itself for a channel listing. When
 * the process dies before it could (between the reservation and the job
 * stream, or in the middle of a listing), the units would stay held: after a
 * grace period such a reservation is released, uncharged.
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
    if (lookup.feature !== 'channel_list' && (await this.options.jobExists(lookup.feature, lookup.lookupId))) return DONE;
    const graceMs = this.options.graceMs + (lookup.feature === 'channel_list' ? this.options.listingTimeoutMs : 0);
    const waited = this.clock.now().getTime() - Date.parse(message.occurredAt);
    if (waited < graceMs) return { kind: 'retry', afterMs: graceMs - waited };
    await this.accounts.handle(message.accountId, { type: 'ReleaseLookup', data: { lookupId: lookup.lookupId, now: this.clock.now().toISOString() } }, { correlationId: lookup.lookupId });
    return DONE;
  }
}
