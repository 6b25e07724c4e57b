import type { BatchWebhookEvent } from '../../domain/batch/finished-webhook.js';
import type { RequestedBatchState } from '../../domain/batch/state.js';
import type { WebhookAttemptResult, WebhookDeliveryCommand } from '../../domain/webhook-delivery/commands.js';
import type { WebhookDeliveryState } from '../../domain/webhook-delivery/state.js';
import type { CommandHandler } from '../command-handler.js';
import type { Clock } from '../ports/clock.js';
import type { WebhookSender } from '../ports/webhook-sender.js';
import type { WebhookSigningKeys } from '../ports/webhook-signing-keys.js';
import { type BatchCommandHandler, batchCorrelation } from './batch-commands.js';
import { batchView } from './batch-view.js';

type BatchWebhookCommandHandler = CommandHandler<WebhookDeliveryCommand, BatchWebhookEvent, WebhookDeliveryState>;

export interface DeliverBatchWebhookDependencies {
  readonly deliveries: BatchWebhookCommandHandler;
  readonly batches: BatchCommandHandler;
  readonly sender: WebhookSender;
  readonly keys: WebhookSigningKeys;
  readonly clock: Clock;
  /** As for `download.finished`: the acknowledgement limit, the waits between attempts, and this process's name. */
  readonly options: { timeoutMs: number; retryDelaysMs: readonly number[]; workerId: string };
}

/** Time kept back at the end of a claim to record the outcome. */
const CLAIM_GRACE_MS = 5_000;

/**
 * The next step of a finished batch's `batch.finished` delivery: an attempt
 * is claimed in the batch's stream (so no two workers send it), signed with
 * the account's current key and sent, and its outcome recorded; the answer
 * is when to look again, or null once the delivery is over (acknowledged,
 * stopped by a 410, or given up after the schedule).
 */
export class DeliverBatchWebhook {
  constructor(private readonly deps: DeliverBatchWebhookDependencies) {}

  async step(batchId: string): Promise<Date | null> {
    const context = batchCorrelation(batchId);
    const { retryDelaysMs } = this.deps.options;
    for (let pass = 0; pass < 5; pass += 1) {
      const { state } = await this.deps.deliveries.load(batchId);
      if (state.job?.webhookUrl == null || state.terminal === null || state.finished !== null) return null;
      const now = this.deps.clock.now();
      if (state.inFlight !== null) {
        const deadline = Date.parse(state.inFlight.deadline);
        if (now.getTime() < deadline) return new Date(deadline + 100);
        const { attempt } = state.inFlight;
        await this.deps.deliveries.handle(
          batchId,
          { type: 'AbandonWebhookAttempt', data: { jobId: batchId, attempt, now: now.toISOString(), retryDelaysMs } },
          context,
        );
        continue;
      }
      const dueAt = Date.parse(state.nextAttemptAt ?? state.terminal.at);
      if (now.getTime() < dueAt) return new Date(dueAt);
      await this.claimAndSend(batchId, state, now);
    }
    return new Date(this.deps.clock.now().getTime() + 1_000);
  }

  private async claimAndSend(batchId: string, state: WebhookDeliveryState, now: Date): Promise<void> {
    const { timeoutMs, retryDelaysMs, workerId } = this.deps.options;
    const context = batchCorrelation(batchId);
    const attempt = state.attempts + 1;
    const deadline = new Date(now.getTime() + timeoutMs + CLAIM_GRACE_MS).toISOString();
    const claim = await this.deps.deliveries.handle(
      batchId,
      { type: 'StartWebhookAttempt', data: { jobId: batchId, attempt, workerId, now: now.toISOString(), deadline } },
      context,
    );
    if (claim.events.length === 0) return;
    const started = Date.now();
    const result = await this.send(batchId, state, attempt);
    await this.deps.deliveries.handle(
      batchId,
      {
        type: 'RecordWebhookAttemptOutcome',
        data: {
          jobId: batchId,
          attempt,
          result,
          durationMs: Date.now() - started,
          now: this.deps.clock.now().toISOString(),
          retryDelaysMs,
        },
      },
      context,
    );
  }

  private async send(batchId: string, state: WebhookDeliveryState, attempt: number): Promise<WebhookAttemptResult> {
    const { accountId, webhookUrl } = state.job as { accountId: string; webhookUrl: string };
    const signingKey = await this.deps.keys.currentKey(accountId);
    if (signingKey === null)
      return {
        kind: 'failed',
        statusCode: null,
        errorClass: 'no_signing_key',
        detail: 'the account has no active API key',
      };
    const { state: batch } = await this.deps.batches.load(batchId);
    const response = await this.deps.sender.send({
      url: webhookUrl,
      event: 'batch.finished',
      jobId: batchId,
      attempt,
      body: JSON.stringify(finishedBody(batch as RequestedBatchState)),
      signingKey,
      timeoutMs: this.deps.options.timeoutMs,
    });
    if (response.kind === 'error')
      return { kind: 'failed', statusCode: null, errorClass: response.errorClass, detail: response.detail };
    const { statusCode } = response;
    if (statusCode >= 200 && statusCode < 300) return { kind: 'acknowledged', statusCode };
    return { kind: 'failed', statusCode, errorClass: 'http_status', detail: null };
  }
}

/** The batch as it finished: its status, its videos counted by status, and their jobs. */
function finishedBody(batch: RequestedBatchState) {
  const view = batchView(batch, null, new Map());
  const counts: Record<string, number> = {};
  for (const video of view.videos) counts[video.status] = (counts[video.status] ?? 0) + 1;
  return {
    event: 'batch.finished',
    batchId: view.batchId,
    status: view.status,
    round: batch.finishes,
    counts,
    finishedAt: view.finishedAt,
    jobs: view.videos.map(({ videoUrl, status, jobId, refusal }) => ({ videoUrl, status, jobId, refusal })),
  };
}
