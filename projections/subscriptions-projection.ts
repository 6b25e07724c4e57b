import type { Knex } from 'knex';
import type { RecordedEvent } from '../application/ports/event-store.js';
import { SUBSCRIPTION_EVENT_TYPES, type SubscriptionEvent } from '../domain/subscription/events.js';
import { evolveSubscription } from '../domain/subscription/evolve.js';
import { type SubscriptionState, initialSubscriptionState } from '../domain/subscription/state.js';
import type { Projection } from './projection.js';

/**
 * `subscriptions`: each subscription folded by its own `evolve`, with the
 * columns its scheduler and its account's list select on. The state is
 * `json`, not `jsonb`, so its jobs keep the order they were submitted in.
 * Guarded by the stream revision, so an event applied twice changes nothing.
 */
export const subscriptionsProjection: Projection = {
  name: 'subscriptions',
  // By category too: its followers then wake only at appends to subscriptions, not at every append.
  filter: { eventTypes: SUBSCRIPTION_EVENT_TYPES, streamPrefixes: ['subscription-'] },
  tables: ['subscriptions'],
  async apply(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void> {
    for (const recorded of events) await applySubscriptionEvent(trx, recorded);
  },
};

async function applySubscriptionEvent(trx: Knex.Transaction, recorded: RecordedEvent): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as unknown as SubscriptionEvent;
  const { subscriptionId, accountId } = event.data;
  const row = await trx('subscriptions').where({ subscription_id: subscriptionId }).first();
  if (row !== undefined && row.last_revision >= recorded.revision) return;
  const before: SubscriptionState =
    row === undefined ? initialSubscriptionState() : (parsed(row.state) as SubscriptionState);
  const state = evolveSubscription(before, event);
  if (state.status === 'none') return;
  const values = {
    status: state.status,
    state: JSON.stringify(state),
    next_check_at: state.nextCheckAt,
    check_started_at: state.checkInProgress?.startedAt ?? null,
    last_revision: recorded.revision,
  };
  if (row === undefined)
    await trx('subscriptions').insert({
      subscription_id: subscriptionId,
      account_id: accountId,
      created_at: state.created.createdAt,
      ...values,
    });
  else await trx('subscriptions').where({ subscription_id: subscriptionId }).update(values);
}

function parsed(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
