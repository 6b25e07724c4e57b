import { type DecisionsByType, decideByType } from '../decide-by-type.js';
import { InvalidTransitionError, NotFoundError } from '../errors.js';
import { abandonWebhookAttempt, recordWebhookAttemptOutcome, startWebhookAttempt } from './attempt-decisions.js';
import type { WebhookDeliveryCommand } from './commands.js';
import type { WebhookDeliveryOwnEvent } from './events.js';
import type { DeliveryContext, WebhookDeliveryState } from './state.js';

const ON_FINISHED_JOB: DecisionsByType<WebhookDeliveryCommand, DeliveryContext, WebhookDeliveryOwnEvent> = {
  StartWebhookAttempt: startWebhookAttempt,
  RecordWebhookAttemptOutcome: recordWebhookAttemptOutcome,
  AbandonWebhookAttempt: abandonWebhookAttempt,
};

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
  const context = { state, jobId, accountId: job.accountId, url: job.webhookUrl, event: state.terminal.event };
  return decideByType(ON_FINISHED_JOB, command, context);
}
