import type { Knex } from 'knex';
import type { RecordedEvent } from '../application/ports/event-store.js';
import type { WebhookDeliveryOwnEvent } from '../domain/webhook-delivery/events.js';
import type { Projection } from './projection.js';

const DELIVERY_EVENT_TYPES: readonly WebhookDeliveryOwnEvent['type'][] = [
  'WebhookAttemptStarted',
  'WebhookAttemptSucceeded',
  'WebhookAttemptFailed',
  'WebhookDeliveryStopped',
  'WebhookDeliveryGaveUp',
];

/**
 * `failing_webhook_deliveries`: one row per webhook delivery (a job's, a batch's, a subscription's: one per stream)
 * whose last attempt failed, with why and what comes next; a success removes it. What operators look at first when a
 * customer says "your webhooks stopped".
 */
export const failingWebhookDeliveriesProjection: Projection = {
  name: 'failing_webhook_deliveries',
  filter: { eventTypes: DELIVERY_EVENT_TYPES },
  tables: ['failing_webhook_deliveries'],
  async apply(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void> {
    for (const recorded of events) await applyDeliveryEvent(trx, recorded);
  },
};

async function applyDeliveryEvent(trx: Knex.Transaction, recorded: RecordedEvent): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as WebhookDeliveryOwnEvent;
  const { jobId, accountId } = event.data;
  const row = () => trx('failing_webhook_deliveries').where('stream_name', recorded.streamName);
  switch (event.type) {
    case 'WebhookAttemptStarted': {
      // An attempt under way: its URL and event name are kept for the failure that may follow; listed only once one has.
      const fields = { url: event.data.url, event: event.data.event };
      await trx('failing_webhook_deliveries')
        .insert({
          stream_name: recorded.streamName,
          job_id: jobId,
          account_id: accountId,
          attempts: 0,
          state: 'attempting',
          ...fields,
        })
        .onConflict('stream_name')
        .merge(fields);
      return;
    }
    case 'WebhookAttemptSucceeded':
      await row().delete();
      return;
    case 'WebhookAttemptFailed': {
      const { attempt, statusCode, errorClass, detail, finishedAt, nextAttemptAt } = event.data;
      const fields = {
        attempts: attempt,
        state: nextAttemptAt === null ? 'ended' : 'retrying',
        status_code: statusCode,
        error_class: errorClass,
        detail,
        failed_at: finishedAt,
        next_attempt_at: nextAttemptAt,
      };
      await trx('failing_webhook_deliveries')
        .insert({ stream_name: recorded.streamName, job_id: jobId, account_id: accountId, ...fields })
        .onConflict('stream_name')
        .merge(fields);
      return;
    }
    case 'WebhookDeliveryStopped':
      await row().update({ state: 'stopped', next_attempt_at: null });
      return;
    case 'WebhookDeliveryGaveUp':
      await row().update({ state: 'gave_up', next_attempt_at: null });
      return;
  }
}
