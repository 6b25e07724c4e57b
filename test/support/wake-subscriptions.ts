import type { Knex } from 'knex';
import { EVENTS_CHANNEL } from '../../infrastructure/event-store/postgres/schema.js';

/**
 * Sends the PostgreSQL event store's notification without categories, which
 * wakes every subscription on the database. A projection is only woken by
 * events of its own categories and passes the others at its idle poll (up to
 * 5 s), so a wait for every projection to reach the head, after a quiet
 * spell, waited that long for nothing.
 */
export async function wakeEverySubscription(db: Knex): Promise<void> {
  await db.raw("SELECT pg_notify(?, '')", [EVENTS_CHANNEL]);
}
