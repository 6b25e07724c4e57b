import { InvalidTransitionError } from '../../domain/errors.js';
import { beatWhile } from '../beat-while.js';
import type { LookupJobStatus } from '../../domain/lookup-job/status.js';
import type { LookupJobSteps, LookupJobStreamStatus } from '../lookups/lookup-job-steps.js';
import type { CommandContext } from '../command-handler.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import { type LookupAttempt, type LookupRetryOptions, attemptLookup } from './lookup-attempt.js';
import type { SettleLookupBilling } from './settle-lookup-billing.js';
import { workContext } from './work-context.js';
import { DONE, type Delivery, type WorkOutcome } from './work-outcome.js';
import type { JobMessage } from './work-routing.js';

/** A job as its stream has it while pending. */
type PendingJob<Result> = Awaited<ReturnType<LookupJobSteps<Result>['load']>>;

/** What a lookup job's run works with. */
export interface RunLookupJobDependencies<Result> {
  readonly label: string;
  readonly steps: LookupJobSteps<Result>;
  readonly settle: SettleLookupBilling;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly options: LookupRetryOptions;
}

/**
 * <Kind>Requested -> extractor -> success or failed, then the account: the
 * reserved unit is charged on success and released on failure. The
 * settlement is repeated on every delivery of a finished job (the account
 * decider makes repeats no-ops), so a worker dying between the two steps
 * neither loses the charge nor charges twice.
 *
 * Attempts are counted in the job stream: only an extractor failure worth
 * retrying spends one (<Kind>AttemptFailed). Errors of this service's own
 * infrastructure (the database, the queue) are thrown, so the queue retries
 * the message with backoff without spending an attempt; a job still pending
 * after a long outage is ended by the reconciler.
 */
export class RunLookupJob<Result> {
  private readonly label: string;
  private readonly steps: LookupJobSteps<Result>;
  private readonly settle: SettleLookupBilling;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly options: LookupRetryOptions;

  constructor(dependencies: RunLookupJobDependencies<Result>) {
    ({
      label: this.label,
      steps: this.steps,
      settle: this.settle,
      clock: this.clock,
      logger: this.logger,
      options: this.options,
    } = dependencies);
  }

  /** Runs a pending job once (or records its retry), then settles the account of a job that has finished. */
  async handle(message: JobMessage, delivery: Delivery): Promise<WorkOutcome> {
    const { jobId } = message;
    const context = workContext(message);
    const job = await this.steps.load(jobId);
    let status: LookupJobStreamStatus = job.status;
    if (status === 'none' || status === 'abandoned') return DONE;
    if (status === 'pending') {
      const attempt = await this.attempt(job, delivery);
      const now = this.clock.now().toISOString();
      if (attempt.kind === 'retry') return this.retryLater(jobId, job.failedAttempts + 1, attempt, now, context);
      status = await this.finish(jobId, attempt, now, context);
    }
    if (status === 'success' || status === 'failed')
      await this.settle.handle(message.accountId, jobId, status, context);
    return DONE;
  }

  /** The job's next attempt, or its failure once its attempts ran out. */
  private async attempt(job: PendingJob<Result>, delivery: Delivery): Promise<LookupAttempt<Result>> {
    const { maxAttempts } = this.options;
    if (job.failedAttempts >= maxAttempts) {
      const error = `Gave up after ${maxAttempts} failed attempts`;
      return { kind: 'failed', error, errorCode: 'NETWORK_ERROR', detail: undefined };
    }
    // The extractor bounds a lookup's time (a listing's may well exceed the ack wait), so it beats while it runs.
    return attemptLookup(
      () => beatWhile(job.lookUp(delivery.signal), () => delivery.heartbeat()),
      job.failedAttempts + 1,
      this.options,
      delivery.signal,
    );
  }

  /** Spends the attempt in the job's stream and has the message come back after the attempt's delay. */
  private async retryLater(
    jobId: string,
    attempt: number,
    failure: Extract<LookupAttempt<Result>, { kind: 'retry' }>,
    now: string,
    context: CommandContext,
  ): Promise<WorkOutcome> {
    const { error, errorCode, detail, afterMs } = failure;
    await this.steps.recordAttemptFailure(jobId, attempt, error, errorCode, now, context);
    this.logger.warn({ jobId, attempt, reason: error, detail, retryInMs: afterMs }, `${this.label} failed; retrying`);
    return { kind: 'retry', afterMs };
  }

  /** Completes or fails the job with the attempt's outcome: its final status. */
  private async finish(
    jobId: string,
    attempt: Exclude<LookupAttempt<Result>, { kind: 'retry' }>,
    now: string,
    context: CommandContext,
  ): Promise<LookupJobStreamStatus> {
    const status = await this.finalStatus(jobId, () =>
      attempt.kind === 'success'
        ? this.steps.complete(jobId, attempt.value, now, context)
        : this.steps.fail(jobId, attempt.error, attempt.errorCode, now, context),
    );
    const failure = attempt.kind === 'failed' ? { errorCode: attempt.errorCode, detail: attempt.detail } : {};
    this.logger.info({ jobId, status, ...failure }, `${this.label} finished`);
    return status;
  }

  /** The job's final status: the one this worker reached, or the one it was given meanwhile (by the reconciler, say). */
  private async finalStatus(jobId: string, finishing: () => Promise<LookupJobStatus>): Promise<LookupJobStreamStatus> {
    try {
      return await finishing();
    } catch (error) {
      if (!(error instanceof InvalidTransitionError)) throw error;
      return (await this.steps.load(jobId)).status;
    }
  }
}
