import { InvalidTransitionError, NotFoundError } from '../errors.js';
import type { WebhookAttemptResult, WebhookDeliveryCommand } from './commands.js';
import type { WebhookAttemptFailed, WebhookDeliveryOwnEvent } from './events.js';
import { MAX_WEBHOOK_ATTEMPTS, type WebhookDeliveryState } from './state.js';

const GONE = 410;

/**
 * One `download.finished` delivery per job with a webhookUrl, once the job
 * is terminal: attempts are claimed one at a time, in order, never before
 * their time, at most ten; a 2xx ends the delivery, a 410 stops it, and
 * after the tenth failure it gives up. Repeating a claim or an outcome that
 * is already recorded does nothing, so two workers never both record one.
 */
export function decideWebhookDelivery(
  command: WebhookDeliveryCommand,
  state: WebhookDeliveryState,
): WebhookDeliveryOwnEvent[] {
  const { jobId } = command.data;
  const job = state.job;
  if (job === null) throw new NotFoundError(`Job ${jobId} not found`);
  if (job.webhookUrl === null) throw new InvalidTransitionError(`Job ${jobId} has no webhookUrl`);
  if (state.terminal === null)
    throw new InvalidTransitionError(`Job ${jobId} is not finished; its webhook cannot be sent yet`);
  const { accountId } = job;
  const { attempt, now } = command.data;

  switch (command.type) {
    case 'StartWebhookAttempt': {
      if (attempt <= state.attempts) return [];
      if (state.finished !== null)
        throw new InvalidTransitionError(`The webhook of job ${jobId} is ${state.finished}; no further attempt`);
      if (attempt > MAX_WEBHOOK_ATTEMPTS)
        throw new InvalidTransitionError(`A webhook has at most ${MAX_WEBHOOK_ATTEMPTS} attempts`);
      if (attempt !== state.attempts + 1)
        throw new InvalidTransitionError(
          `The next webhook attempt of job ${jobId} is ${state.attempts + 1}, not ${attempt}`,
        );
      if (state.inFlight !== null)
        throw new InvalidTransitionError(
          `Webhook attempt ${state.inFlight.attempt} of job ${jobId} has no outcome yet`,
        );
      if (state.nextAttemptAt !== null && Date.parse(now) < Date.parse(state.nextAttemptAt)) {
        throw new InvalidTransitionError(`Webhook attempt ${attempt} of job ${jobId} is due at ${state.nextAttemptAt}`);
      }
      const { workerId, deadline } = command.data;
      return [
        {
          type: 'WebhookAttemptStarted',
          data: {
            jobId,
            accountId,
            attempt,
            event: state.terminal.event,
            url: job.webhookUrl,
            workerId,
            startedAt: now,
            deadline,
          },
        },
      ];
    }
    case 'RecordWebhookAttemptOutcome': {
      if (isRecorded(state, attempt)) return [];
      checkInFlight(state, jobId, attempt);
      return outcomeEvents(state, command.data.result, command.data.durationMs, command.data);
    }
    case 'AbandonWebhookAttempt': {
      if (isRecorded(state, attempt)) return [];
      const inFlight = checkInFlight(state, jobId, attempt);
      if (Date.parse(now) < Date.parse(inFlight.deadline)) {
        throw new InvalidTransitionError(
          `Webhook attempt ${attempt} of job ${jobId} may still be under way until ${inFlight.deadline}`,
        );
      }
      return outcomeEvents(
        state,
        { kind: 'failed', statusCode: null, errorClass: 'interrupted', detail: `no outcome by ${inFlight.deadline}` },
        null,
        command.data,
      );
    }
    default: {
      const unknown: never = command;
      throw new InvalidTransitionError(`Unknown command ${(unknown as { type: string }).type}`);
    }
  }
}

function isRecorded(state: WebhookDeliveryState, attempt: number): boolean {
  return attempt < state.attempts || (attempt === state.attempts && state.inFlight === null);
}

function checkInFlight(
  state: WebhookDeliveryState,
  jobId: string,
  attempt: number,
): NonNullable<WebhookDeliveryState['inFlight']> {
  if (state.inFlight === null || state.inFlight.attempt !== attempt)
    throw new InvalidTransitionError(`Webhook attempt ${attempt} of job ${jobId} was never started`);
  return state.inFlight;
}

function outcomeEvents(
  state: WebhookDeliveryState,
  result: WebhookAttemptResult,
  durationMs: number | null,
  data: { jobId: string; attempt: number; now: string; retryDelaysMs: readonly number[] },
): WebhookDeliveryOwnEvent[] {
  const { jobId, attempt, now } = data;
  const accountId = (state.job as { accountId: string }).accountId;
  if (result.kind === 'acknowledged') {
    return [
      {
        type: 'WebhookAttemptSucceeded',
        data: {
          jobId,
          accountId,
          attempt,
          statusCode: result.statusCode,
          durationMs: durationMs ?? 0,
          finishedAt: now,
        },
      },
    ];
  }
  const gone = result.statusCode === GONE;
  const last = attempt >= MAX_WEBHOOK_ATTEMPTS;
  const nextDelayMs = gone || last ? null : delayAfter(data.retryDelaysMs, attempt);
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
