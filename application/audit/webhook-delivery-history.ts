import type { WebhookDeliveryOwnEvent } from '../../domain/webhook-delivery/events.js';
import type { WebhookDeliveryResult } from '../../domain/webhook-delivery/state.js';
import { streamName } from '../../domain/stream-name.js';
import { BATCH_CATEGORY } from '../../domain/batch/decider.js';
import { DOWNLOAD_JOB_CATEGORY } from '../../domain/download-job/decider.js';
import type { EventStore } from '../ports/event-store.js';

export interface WebhookAttemptEntry {
  attempt: number;
  startedAt: string;
  workerId: string;
  /** `in_flight`: claimed, with no outcome recorded (yet). */
  outcome: 'acknowledged' | 'failed' | 'in_flight';
  statusCode: number | null;
  errorClass: string | null;
  detail: string | null;
  durationMs: number | null;
  finishedAt: string | null;
  /** The wait chosen before the next attempt; null when none follows. */
  nextDelayMs: number | null;
}

export interface WebhookDeliveryHistory {
  jobId: string;
  accountId: string;
  webhookUrl: string | null;
  /** The job's terminal event (a batch's: its outcome) and when it happened; null while it runs. */
  finished: { status: string; at: string } | null;
  attempts: WebhookAttemptEntry[];
  /** `none`: the job has no webhookUrl; `pending`: more attempts may come. */
  result: WebhookDeliveryResult | 'pending' | 'none';
  endedAt: string | null;
}

/** A job's webhook delivery as its stream records it, attempt by attempt, for auditors. */
export class ReadWebhookDeliveryHistory {
  constructor(private readonly store: EventStore) {}

  async execute(jobId: string): Promise<WebhookDeliveryHistory | null> {
    const recorded = await this.store.readStream(streamName(DOWNLOAD_JOB_CATEGORY, jobId));
    const requested = recorded.find((event) => event.type === 'DownloadRequested');
    if (requested === undefined) return null;
    const history: WebhookDeliveryHistory = {
      jobId,
      accountId: String(requested.data.accountId),
      webhookUrl: (requested.data.webhookUrl as string | null) ?? null,
      finished: null,
      attempts: [],
      result: requested.data.webhookUrl == null ? 'none' : 'pending',
      endedAt: null,
    };
    for (const { type, data } of recorded) {
      if (type === 'DownloadCompleted') history.finished ??= { status: 'COMPLETED', at: String(data.completedAt) };
      if (type === 'DownloadFailed') history.finished ??= { status: 'FAILED', at: String(data.failedAt) };
      applyDeliveryEvent(history, { type, data } as WebhookDeliveryOwnEvent);
    }
    return history;
  }

  /** A batch's `batch.finished` delivery, from the batch's stream (its attempts' `jobId` is the batch's id). */
  async forBatch(batchId: string): Promise<WebhookDeliveryHistory | null> {
    const recorded = await this.store.readStream(streamName(BATCH_CATEGORY, batchId));
    const requested = recorded.find((event) => event.type === 'BatchRequested');
    if (requested === undefined) return null;
    const webhookUrl = (requested.data.batchWebhookUrl as string | null) ?? null;
    const history: WebhookDeliveryHistory = {
      jobId: batchId,
      accountId: String(requested.data.accountId),
      webhookUrl,
      finished: null,
      attempts: [],
      result: webhookUrl === null ? 'none' : 'pending',
      endedAt: null,
    };
    for (const { type, data } of recorded) {
      if (type === 'BatchFinished') history.finished ??= { status: String(data.status), at: String(data.finishedAt) };
      applyDeliveryEvent(history, { type, data } as WebhookDeliveryOwnEvent);
    }
    return history;
  }
}

function applyDeliveryEvent(history: WebhookDeliveryHistory, event: WebhookDeliveryOwnEvent): void {
  const entry = (attempt: number) => history.attempts.find((candidate) => candidate.attempt === attempt);
  switch (event.type) {
    case 'WebhookAttemptStarted':
      history.attempts.push({
        attempt: event.data.attempt,
        startedAt: event.data.startedAt,
        workerId: event.data.workerId,
        outcome: 'in_flight',
        statusCode: null,
        errorClass: null,
        detail: null,
        durationMs: null,
        finishedAt: null,
        nextDelayMs: null,
      });
      return;
    case 'WebhookAttemptSucceeded':
      Object.assign(entry(event.data.attempt) ?? {}, {
        outcome: 'acknowledged',
        statusCode: event.data.statusCode,
        durationMs: event.data.durationMs,
        finishedAt: event.data.finishedAt,
      });
      history.result = 'acknowledged';
      history.endedAt = event.data.finishedAt;
      return;
    case 'WebhookAttemptFailed': {
      const { statusCode, errorClass, detail, durationMs, finishedAt, nextDelayMs } = event.data;
      Object.assign(entry(event.data.attempt) ?? {}, {
        outcome: 'failed',
        statusCode,
        errorClass,
        detail,
        durationMs,
        finishedAt,
        nextDelayMs,
      });
      return;
    }
    case 'WebhookDeliveryStopped':
      history.result = 'stopped';
      history.endedAt = event.data.stoppedAt;
      return;
    case 'WebhookDeliveryGaveUp':
      history.result = 'gave_up';
      history.endedAt = event.data.gaveUpAt;
      return;
    default:
      return;
  }
}
