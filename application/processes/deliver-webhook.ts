import type { WebhookAttemptResult } from '../../domain/webhook-delivery/commands.js';
import type { WebhookDeliveryEvent } from '../../domain/webhook-delivery/evolve.js';
import type { WebhookDeliveryState } from '../../domain/webhook-delivery/state.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import { downloadJobViewFromState } from '../downloads/download-job-view.js';
import type { Clock } from '../ports/clock.js';
import type { DownloadStatusRenderer } from '../ports/download-status-renderer.js';
import type { Logger } from '../ports/logger.js';
import type { DownloadJobView } from '../ports/read-models.js';
import type { WebhookMetrics } from '../ports/webhook-metrics.js';
import type { WebhookSender } from '../ports/webhook-sender.js';
import type { WebhookSigningKeys } from '../ports/webhook-signing-keys.js';
import type { WebhookDeliveryCommandHandler } from '../webhooks/webhook-delivery-commands.js';
import type { WebhookShares } from '../webhooks/webhook-shares.js';
import { workContext } from './work-context.js';
import { DONE, type Delivery, type WorkOutcome } from './work-outcome.js';
import type { JobMessage } from './work-routing.js';

export interface DeliverWebhookOptions {
  /** The acknowledgement limit of one attempt. */
  timeoutMs: number;
  /** The wait after failed attempt n is `retryDelaysMs[n - 1]`. */
  retryDelaysMs: readonly number[];
  /** Names this process in the claims it records. */
  workerId: string;
  /** How long a claim outlives the attempt's own limit, for the work around the request. Default 5 s. */
  claimGraceMs?: number;
  /** Shares the sender between accounts; without it every due attempt is sent at once. */
  shares?: WebhookShares;
  /** Whether `GET /me` already shows the job's charge or release; the first attempt waits for it (read-your-writes). */
  chargeVisible?: (accountId: string, jobId: string) => Promise<boolean>;
}

/** Looks for the charge again after a tenth of the time waited so far, within these bounds. */
const CHARGE_RECHECK_MS = { min: 250, max: 30_000 };

/** Time kept back at the end of a claim to record the outcome before the claim runs out. */
const RECORDING_MARGIN_MS = 1_000;

/** What a webhook delivery works with. */
export interface DeliverWebhookDependencies {
  readonly deliveries: WebhookDeliveryCommandHandler;
  readonly jobs: DownloadJobCommandHandler;
  readonly renderer: DownloadStatusRenderer;
  readonly sender: WebhookSender;
  readonly keys: WebhookSigningKeys;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: WebhookMetrics;
  readonly options: DeliverWebhookOptions;
}

/**
 * A finished job with a webhookUrl -> the next attempt of its
 * `download.finished` delivery, when due. The job's stream is the schedule:
 * an attempt is first claimed there (so no two workers send the same one),
 * then rendered, signed and sent, then its outcome recorded, and the message
 * comes back when the next attempt is due. A redelivered or early message
 * finds the stream's answer and waits again, so a restart neither loses, nor
 * repeats, nor hurries an attempt.
 */
export class DeliverWebhook {
  private readonly claimGraceMs: number;

  private readonly deliveries: WebhookDeliveryCommandHandler;
  private readonly jobs: DownloadJobCommandHandler;
  private readonly renderer: DownloadStatusRenderer;
  private readonly sender: WebhookSender;
  private readonly keys: WebhookSigningKeys;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly metrics: WebhookMetrics;
  private readonly options: DeliverWebhookOptions;

  constructor(dependencies: DeliverWebhookDependencies) {
    ({
      deliveries: this.deliveries,
      jobs: this.jobs,
      renderer: this.renderer,
      sender: this.sender,
      keys: this.keys,
      clock: this.clock,
      logger: this.logger,
      metrics: this.metrics,
      options: this.options,
    } = dependencies);
    this.claimGraceMs = this.options.claimGraceMs ?? 5_000;
  }

  async handle(
    message: JobMessage,
    delivery: Partial<Pick<Delivery, 'signal' | 'heartbeat'>> = {},
  ): Promise<WorkOutcome> {
    const { jobId } = message;
    const context = workContext(message);
    // Each pass either ends, waits, or records something, so a few passes always settle.
    for (let pass = 0; pass < 5; pass += 1) {
      const { state } = await this.deliveries.load(jobId);
      if (state.job?.webhookUrl == null || state.terminal === null || state.finished !== null) return DONE;
      const now = this.clock.now();
      if (state.inFlight !== null) {
        const deadline = Date.parse(state.inFlight.deadline);
        if (now.getTime() < deadline) return { kind: 'retry', afterMs: deadline - now.getTime() + 100 };
        const abandoned = await this.deliveries.handle(
          jobId,
          {
            type: 'AbandonWebhookAttempt',
            data: {
              jobId,
              attempt: state.inFlight.attempt,
              now: now.toISOString(),
              retryDelaysMs: this.options.retryDelaysMs,
            },
          },
          context,
        );
        this.report(abandoned.events, state);
        continue;
      }
      const dueAt = state.nextAttemptAt === null ? Date.parse(state.terminal.at) : Date.parse(state.nextAttemptAt);
      if (now.getTime() < dueAt) return { kind: 'retry', afterMs: dueAt - now.getTime() };
      // A receiver that reads the account on news of the job must find its charge: the first attempt waits until /me shows it.
      if (
        state.attempts === 0 &&
        state.job !== null &&
        this.options.chargeVisible !== undefined &&
        !(await this.options.chargeVisible(state.job.accountId, jobId))
      ) {
        return {
          kind: 'retry',
          afterMs: Math.min(CHARGE_RECHECK_MS.max, Math.max(CHARGE_RECHECK_MS.min, (now.getTime() - dueAt) / 10)),
        };
      }

      const send = () => this.claimAndSend(state, dueAt, context, delivery.signal);
      const { shares } = this.options;
      if (shares !== undefined) {
        const turn = await shares.run(message.accountId, send, delivery.heartbeat);
        if ('putOffMs' in turn) return { kind: 'retry', afterMs: turn.putOffMs };
      } else await send();
    }
    return { kind: 'retry', afterMs: 1_000 };
  }

  /** Claims the due attempt, sends it and records its outcome; false when another worker claimed it first. */
  private async claimAndSend(
    state: WebhookDeliveryState,
    dueAt: number,
    context: ReturnType<typeof workContext>,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    const { jobId } = state.job as { jobId: string };
    // A turn waited for may come after the queue handed the message elsewhere: leave the attempt to that delivery.
    if (signal?.aborted === true) return false;
    // What needs I/O is fetched before the claim, so a failure here costs no attempt.
    const prepared = await this.prepare(state);
    const now = this.clock.now();
    const attempt = state.attempts + 1;
    const deadline = new Date(now.getTime() + this.options.timeoutMs + this.claimGraceMs);
    const claim = await this.deliveries.handle(
      jobId,
      {
        type: 'StartWebhookAttempt',
        data: {
          jobId,
          attempt,
          workerId: this.options.workerId,
          now: now.toISOString(),
          deadline: deadline.toISOString(),
        },
      },
      context,
    );
    // Another worker claimed it first: look at the stream again rather than send it too.
    if (claim.events.length === 0) return false;
    this.metrics.attemptStarted(now.getTime() - dueAt);

    const { result, durationMs } = await this.attempt(state, prepared, attempt, deadline, signal);
    const recorded = await this.deliveries.handle(
      jobId,
      {
        type: 'RecordWebhookAttemptOutcome',
        data: {
          jobId,
          attempt,
          result,
          durationMs,
          now: this.clock.now().toISOString(),
          retryDelaysMs: this.options.retryDelaysMs,
        },
      },
      context,
    );
    this.report(recorded.events, state);
    return true;
  }

  /** The account's current signing key and the job as its stream has it. */
  private async prepare(state: WebhookDeliveryState): Promise<{ signingKey: string | null; view: DownloadJobView }> {
    const job = state.job as { jobId: string; accountId: string };
    const signingKey = await this.keys.currentKey(job.accountId);
    const view = downloadJobViewFromState((await this.jobs.load(job.jobId)).state);
    if (view === null) throw new Error(`Job ${job.jobId} has no stream`);
    return { signingKey, view };
  }

  /** Renders the job as GET shows it now, signs with the account's current key and sends; never throws for the receiver's faults. */
  private async attempt(
    state: WebhookDeliveryState,
    { signingKey, view }: { signingKey: string | null; view: DownloadJobView },
    attempt: number,
    deadline: Date,
    signal: AbortSignal | undefined,
  ): Promise<{ result: WebhookAttemptResult; durationMs: number }> {
    const job = state.job as { jobId: string; accountId: string; webhookUrl: string };
    if (signingKey === null) {
      return {
        result: {
          kind: 'failed',
          statusCode: null,
          errorClass: 'no_signing_key',
          detail: 'the account has no active API key to sign with',
        },
        durationMs: 0,
      };
    }
    const now = this.clock.now();
    const timeoutMs = Math.min(this.options.timeoutMs, deadline.getTime() - RECORDING_MARGIN_MS - now.getTime());
    if (timeoutMs <= 0) {
      return {
        result: {
          kind: 'failed',
          statusCode: null,
          errorClass: 'other',
          detail: 'the claim ran out before the request was sent',
        },
        durationMs: 0,
      };
    }
    const response = await this.sender.send({
      url: job.webhookUrl,
      event: (state.terminal as NonNullable<WebhookDeliveryState['terminal']>).event,
      jobId: job.jobId,
      attempt,
      body: this.renderer.render(view, now),
      signingKey,
      timeoutMs,
      signal,
    });
    if (response.kind === 'error')
      return {
        result: { kind: 'failed', statusCode: null, errorClass: response.errorClass, detail: response.detail },
        durationMs: response.durationMs,
      };
    const { statusCode, durationMs } = response;
    if (statusCode >= 200 && statusCode < 300) return { result: { kind: 'acknowledged', statusCode }, durationMs };
    return { result: { kind: 'failed', statusCode, errorClass: 'http_status', detail: null }, durationMs };
  }

  /** Metrics and logs for what was recorded; only the worker that recorded an event reports it, so each is reported once. */
  private report(events: readonly WebhookDeliveryEvent[], before: WebhookDeliveryState): void {
    const terminalAt = Date.parse(before.terminal?.at ?? '');
    const log = this.logger.child({ jobId: before.job?.jobId, accountId: before.job?.accountId });
    for (const event of events) {
      switch (event.type) {
        case 'WebhookAttemptSucceeded':
          this.metrics.attemptFinished('acknowledged', event.data.durationMs);
          this.metrics.deliveryFinished('acknowledged', Date.parse(event.data.finishedAt) - terminalAt);
          log.info(
            { attempt: event.data.attempt, statusCode: event.data.statusCode, durationMs: event.data.durationMs },
            'webhook delivered',
          );
          break;
        case 'WebhookAttemptFailed': {
          const { attempt, statusCode, errorClass, detail, durationMs, nextDelayMs } = event.data;
          this.metrics.attemptFinished(errorClass, durationMs);
          log.warn({ attempt, statusCode, errorClass, detail, durationMs, nextDelayMs }, 'webhook attempt failed');
          break;
        }
        case 'WebhookDeliveryStopped':
          this.metrics.deliveryFinished('stopped', Date.parse(event.data.stoppedAt) - terminalAt);
          log.info({ attempt: event.data.attempt }, 'webhook receiver answered 410 Gone; delivery stopped');
          break;
        case 'WebhookDeliveryGaveUp':
          this.metrics.deliveryFinished('gave_up', Date.parse(event.data.gaveUpAt) - terminalAt);
          log.error({ attempts: event.data.attempts }, 'webhook still failing after every attempt; gave up');
          break;
        default:
          break;
      }
    }
  }
}
