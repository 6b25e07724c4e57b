import type { DomainEvent } from '../../domain/decider.js';
import type { WebhookAttemptResult, WebhookDeliveryCommand } from '../../domain/webhook-delivery/commands.js';
import type { WebhookEventName } from '../../domain/webhook-delivery/events.js';
import type { WebhookDeliveryState } from '../../domain/webhook-delivery/state.js';
import type { CommandHandler } from '../command-handler.js';
import type { Clock } from '../ports/clock.js';
import type { WebhookSender } from '../ports/webhook-sender.js';
import type { WebhookSigningKeys } from '../ports/webhook-signing-keys.js';

export interface DeliverStreamWebhookDependencies<Event extends DomainEvent> {
  /** The delivery's decider over the stream that holds both what it announces and its attempts. */
  readonly deliveries: CommandHandler<WebhookDeliveryCommand, Event, WebhookDeliveryState>;
  /** The body of the webhook about the stream `id`, as it stands when sent. */
  readonly body: (id: string) => Promise<unknown>;
  /** Every command of the delivery is correlated as the stream's own are. */
  readonly correlation: (id: string) => { correlationId: string };
  readonly sender: WebhookSender;
  readonly keys: WebhookSigningKeys;
  readonly clock: Clock;
  /** As for `download.finished`: the acknowledgement limit, the waits between attempts, and this process's name. */
  readonly options: { timeoutMs: number; retryDelaysMs: readonly number[]; workerId: string };
}

/** Time kept back at the end of a claim to record the outcome. */
const CLAIM_GRACE_MS = 5_000;

/**
 * The next step of a webhook whose delivery is kept in the stream it is
 * about (a batch's `batch.finished`, a subscription's `subscription.paused`),
 * with the schedule, 410 rule and claims of `download.finished`: an attempt
 * is claimed in the stream (so no two workers send it), signed with the
 * account's current key and sent, and its outcome recorded; the answer is
 * when to look again, or null once the delivery is over (acknowledged,
 * stopped by a 410, or given up after the schedule).
 */
export class DeliverStreamWebhook<Event extends DomainEvent> {
  constructor(private readonly deps: DeliverStreamWebhookDependencies<Event>) {}

  async step(id: string): Promise<Date | null> {
    const context = this.deps.correlation(id);
    const { retryDelaysMs } = this.deps.options;
    for (let pass = 0; pass < 5; pass += 1) {
      const { state } = await this.deps.deliveries.load(id);
      if (state.job?.webhookUrl == null || state.terminal === null || state.finished !== null) return null;
      const now = this.deps.clock.now();
      if (state.inFlight !== null) {
        const deadline = Date.parse(state.inFlight.deadline);
        if (now.getTime() < deadline) return new Date(deadline + 100);
        const { attempt } = state.inFlight;
        await this.deps.deliveries.handle(
          id,
          { type: 'AbandonWebhookAttempt', data: { jobId: id, attempt, now: now.toISOString(), retryDelaysMs } },
          context,
        );
        continue;
      }
      const dueAt = Date.parse(state.nextAttemptAt ?? state.terminal.at);
      if (now.getTime() < dueAt) return new Date(dueAt);
      await this.claimAndSend(id, state, now);
    }
    return new Date(this.deps.clock.now().getTime() + 1_000);
  }

  private async claimAndSend(id: string, state: WebhookDeliveryState, now: Date): Promise<void> {
    const { timeoutMs, retryDelaysMs, workerId } = this.deps.options;
    const context = this.deps.correlation(id);
    const attempt = state.attempts + 1;
    const deadline = new Date(now.getTime() + timeoutMs + CLAIM_GRACE_MS).toISOString();
    const claim = await this.deps.deliveries.handle(
      id,
      { type: 'StartWebhookAttempt', data: { jobId: id, attempt, workerId, now: now.toISOString(), deadline } },
      context,
    );
    if (claim.events.length === 0) return;
    const started = Date.now();
    const result = await this.send(id, state, attempt);
    await this.deps.deliveries.handle(
      id,
      {
        type: 'RecordWebhookAttemptOutcome',
        data: {
          jobId: id,
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

  private async send(id: string, state: WebhookDeliveryState, attempt: number): Promise<WebhookAttemptResult> {
    const { accountId, webhookUrl } = state.job as { accountId: string; webhookUrl: string };
    const signingKey = await this.deps.keys.currentKey(accountId);
    if (signingKey === null)
      return {
        kind: 'failed',
        statusCode: null,
        errorClass: 'no_signing_key',
        detail: 'the account has no active API key',
      };
    const response = await this.deps.sender.send({
      url: webhookUrl,
      event: (state.terminal as { event: WebhookEventName }).event,
      jobId: id,
      attempt,
      body: JSON.stringify(await this.deps.body(id)),
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
