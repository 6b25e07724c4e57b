import type { DownloadErrorCode } from '../../domain/download-error-code.js';
import type { LookupJobStatus } from '../../domain/lookup-job-status.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { CommandContext } from '../command-handler.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import { type LookupRetryOptions, attemptLookup, interruptedAttemptsError } from './lookup-attempt.js';
import { DONE, type Delivery, type WorkOutcome } from './work-outcome.js';
import type { JobMessage } from './work-routing.js';

/** What the worker needs of one kind of lookup job (info, client download). */
export interface LookupJobSteps<Result> {
  /** The job's status and, while pending, the extractor call that answers it. */
  load(jobId: string): Promise<{ status: LookupJobStatus | 'none'; lookUp: (signal?: AbortSignal) => Promise<Result> }>;
  complete(jobId: string, result: Result, now: string, context: CommandContext): Promise<LookupJobStatus>;
  fail(jobId: string, error: string, errorCode: DownloadErrorCode | null, now: string, context: CommandContext): Promise<LookupJobStatus>;
}

/**
 * <Kind>Requested -> extractor -> success or failed, then the account: the
 * reserved unit is charged on success and released on failure. The
 * settlement is repeated on every delivery of a finished job (the account
 * decider makes repeats no-ops), so a worker dying between the two steps
 * neither loses the charge nor charges twice.
 */
export class RunLookupJob<Result> {
  constructor(
    private readonly label: string,
    private readonly steps: LookupJobSteps<Result>,
    private readonly accounts: AccountCommandHandler,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: LookupRetryOptions,
  ) {}

  async handle(message: JobMessage, delivery: Delivery): Promise<WorkOutcome> {
    const { jobId } = message;
    const context = { correlationId: jobId };
    const job = await this.steps.load(jobId);
    let status = job.status;
    if (status === 'none') return DONE;
    if (status === 'pending') {
      const attempt =
        delivery.attempt > this.options.maxAttempts
          ? ({ kind: 'failed', error: interruptedAttemptsError(this.options.maxAttempts), errorCode: 'NETWORK_ERROR' } as const)
          : await attemptLookup(() => job.lookUp(delivery.signal), delivery.attempt, this.options);
      if (attempt.kind === 'retry') {
        this.logger.warn({ jobId, attempt: delivery.attempt, reason: attempt.error, retryInMs: attempt.afterMs }, `${this.label} failed; retrying`);
        return { kind: 'retry', afterMs: attempt.afterMs };
      }
      const now = this.clock.now().toISOString();
      status =
        attempt.kind === 'success'
          ? await this.steps.complete(jobId, attempt.value, now, context)
          : await this.steps.fail(jobId, attempt.error, attempt.errorCode, now, context);
      this.logger.info({ jobId, status, errorCode: attempt.kind === 'failed' ? attempt.errorCode : undefined }, `${this.label} finished`);
    }
    const now = this.clock.now().toISOString();
    await this.accounts.handle(
      message.accountId,
      status === 'success' ? { type: 'ChargeLookup', data: { lookupId: jobId, now } } : { type: 'ReleaseLookup', data: { lookupId: jobId, now } },
      context,
    );
    return DONE;
  }
}
