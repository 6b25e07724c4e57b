import type { LookupFeature } from '../../domain/account/lookups.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';

export interface SubmittedLookupJob {
  jobId: string;
  status: 'pending';
}

/** What a lookup's submission works with. */
export interface SubmitLookupJobDependencies<Details> {
  readonly feature: LookupFeature;
  readonly accounts: AccountCommandHandler;
  readonly createJob: (
    job: { jobId: string; accountId: string; url: string; details: Details; now: string; expiresAt: string },
    context: { correlationId: string },
  ) => Promise<unknown>;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly lifetimeMs: number;
}

/**
 * Admits an info or client-download job: one unit of the feature is reserved
 * on the account stream first (the race-free check of the add-on and the
 * allowance, so a refusal leaves no job), then the job's stream is written.
 * The worker charges the unit on success and releases it on failure; a
 * reservation whose job stream never got written is released after a grace
 * period (ReleaseOrphanedLookup).
 */
export class SubmitLookupJob<Details> {
  private readonly feature: LookupFeature;
  private readonly accounts: AccountCommandHandler;
  private readonly createJob: SubmitLookupJobDependencies<Details>['createJob'];
  private readonly ids: IdGenerator;
  private readonly clock: Clock;
  private readonly lifetimeMs: number;

  constructor(dependencies: SubmitLookupJobDependencies<Details>) {
    ({
      feature: this.feature,
      accounts: this.accounts,
      createJob: this.createJob,
      ids: this.ids,
      clock: this.clock,
      lifetimeMs: this.lifetimeMs,
    } = dependencies);
  }

  async execute(input: {
    accountId: string;
    url: string;
    details: Details;
    correlationId?: string;
  }): Promise<SubmittedLookupJob> {
    const jobId = this.ids.next();
    const context = { correlationId: input.correlationId ?? jobId };
    const now = this.clock.now();
    await this.accounts.handle(
      input.accountId,
      {
        type: 'ReserveLookup',
        data: { lookupId: jobId, feature: this.feature, units: 1, subject: input.url, now: now.toISOString() },
      },
      context,
    );
    await this.createJob(
      {
        jobId,
        accountId: input.accountId,
        url: input.url,
        details: input.details,
        now: now.toISOString(),
        expiresAt: new Date(now.getTime() + this.lifetimeMs).toISOString(),
      },
      context,
    );
    return { jobId, status: 'pending' };
  }
}
