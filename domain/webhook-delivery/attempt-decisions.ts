import { InvalidTransitionError } from '../errors.js';
import { outcomeEvents } from './attempt-outcome.js';
import type { AbandonWebhookAttempt, RecordWebhookAttemptOutcome, StartWebhookAttempt } from './commands.js';
import type { WebhookDeliveryOwnEvent } from './events.js';
import { type DeliveryContext, MAX_WEBHOOK_ATTEMPTS, type WebhookDeliveryState } from './state.js';

/** Claims the next attempt, in order, never before its time and never while the one before has no outcome. */
export function startWebhookAttempt(
  data: StartWebhookAttempt['data'],
  context: DeliveryContext,
): WebhookDeliveryOwnEvent[] {
  const { state, jobId, accountId } = context;
  const { attempt, now, workerId, deadline } = data;
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
    throw new InvalidTransitionError(`Webhook attempt ${state.inFlight.attempt} of job ${jobId} has no outcome yet`);
  if (state.nextAttemptAt !== null && Date.parse(now) < Date.parse(state.nextAttemptAt)) {
    throw new InvalidTransitionError(`Webhook attempt ${attempt} of job ${jobId} is due at ${state.nextAttemptAt}`);
  }
  const { event, url } = context;
  return [
    {
      type: 'WebhookAttemptStarted',
      data: { jobId, accountId, attempt, event, url, workerId, startedAt: now, deadline },
    },
  ];
}

export function recordWebhookAttemptOutcome(
  data: RecordWebhookAttemptOutcome['data'],
  { state, jobId, accountId }: DeliveryContext,
): WebhookDeliveryOwnEvent[] {
  if (isRecorded(state, data.attempt)) return [];
  checkInFlight(state, jobId, data.attempt);
  return outcomeEvents({ ...data, accountId }, data.result, data.durationMs);
}

/** An attempt whose claim ran out without an outcome (its worker died) is recorded as failed, once its deadline passed. */
export function abandonWebhookAttempt(
  data: AbandonWebhookAttempt['data'],
  { state, jobId, accountId }: DeliveryContext,
): WebhookDeliveryOwnEvent[] {
  const { attempt, now } = data;
  if (isRecorded(state, attempt)) return [];
  const inFlight = checkInFlight(state, jobId, attempt);
  if (Date.parse(now) < Date.parse(inFlight.deadline)) {
    throw new InvalidTransitionError(
      `Webhook attempt ${attempt} of job ${jobId} may still be under way until ${inFlight.deadline}`,
    );
  }
  const detail = `no outcome by ${inFlight.deadline}`;
  return outcomeEvents(
    { ...data, accountId },
    { kind: 'failed', statusCode: null, errorClass: 'interrupted', detail },
    null,
  );
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
