import { InvalidTransitionError } from '../errors.js';
import type { WebhookAttemptResult } from './commands.js';
import type { WebhookAttemptFailed, WebhookDeliveryOwnEvent } from './events.js';
import { MAX_WEBHOOK_ATTEMPTS } from './state.js';

const GONE = 410;

/** What ends an attempt: `retryDelaysMs[n - 1]` is the wait after a failed attempt n. */
export interface AttemptEnd {
  readonly jobId: string;
  readonly accountId: string;
  readonly attempt: number;
  readonly now: string;
  readonly retryDelaysMs: readonly number[];
}

/** A 2xx ends the delivery, a 410 stops it, the last failure gives up, and any other failure waits for the next try. */
export function outcomeEvents(
  end: AttemptEnd,
  result: WebhookAttemptResult,
  durationMs: number | null,
): WebhookDeliveryOwnEvent[] {
  const { jobId, accountId, attempt, now } = end;
  if (result.kind === 'acknowledged') {
    const { statusCode } = result;
    return [
      {
        type: 'WebhookAttemptSucceeded',
        data: { jobId, accountId, attempt, statusCode, durationMs: durationMs ?? 0, finishedAt: now },
      },
    ];
  }
  const gone = result.statusCode === GONE;
  const last = attempt >= MAX_WEBHOOK_ATTEMPTS;
  const nextDelayMs = gone || last ? null : delayAfter(end.retryDelaysMs, attempt);
  const failed: WebhookAttemptFailed = {
    type: 'WebhookAttemptFailed',
    data: {
      jobId,
      accountId,
      attempt,
      statusCode: result.statusCode,
      errorClass: result.errorClass,
      detail: result.detail,
      durationMs,
      finishedAt: now,
      nextDelayMs,
      nextAttemptAt: nextDelayMs === null ? null : new Date(Date.parse(now) + nextDelayMs).toISOString(),
    },
  };
  if (gone)
    return [
      failed,
      { type: 'WebhookDeliveryStopped', data: { jobId, accountId, attempt, statusCode: GONE, stoppedAt: now } },
    ];
  if (last)
    return [failed, { type: 'WebhookDeliveryGaveUp', data: { jobId, accountId, attempts: attempt, gaveUpAt: now } }];
  return [failed];
}

function delayAfter(retryDelaysMs: readonly number[], attempt: number): number {
  const delay = retryDelaysMs[attempt - 1];
  if (delay === undefined || !Number.isFinite(delay) || delay < 0) {
    throw new InvalidTransitionError(`The retry schedule has no delay after attempt ${attempt}`);
  }
  return delay;
}
