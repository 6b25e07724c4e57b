import type { Knex } from 'knex';
import type { RecordedEvent } from '../application/ports/event-store.js';
import { accountDecider } from '../domain/account/decider.js';
import type { AccountEvent } from '../domain/account/events.js';
import { ACCOUNT_EVENT_TYPES } from '../domain/account/events.js';
import type { AccountState } from '../domain/account/state.js';
import type { Projection } from './projection.js';

const ACCESS_EVENTS: ReadonlySet<string> = new Set(['AccountSuspended', 'AccountReactivated', 'AccountClosed']);

/** Notified with the key id of every revocation the projection applies, and of every key of a suspended, reactivated or closed account. */
export const API_KEY_REVOCATIONS_CHANNEL = 'api_key_revocations';

/**
 * `accounts` keeps each account's state folded by the domain's own evolve, so
 * `/me` and the auditors' replay compute balances with the same code;
 * `api_keys` maps key hashes to accounts for authentication.
 */
export const accountsProjection: Projection = {
  name: 'accounts',
  filter: { eventTypes: ACCOUNT_EVENT_TYPES, streamPrefixes: ['account-'] },
  tables: ['accounts', 'api_keys'],
  async apply(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void> {
    const byStream = new Map<string, RecordedEvent[]>();
    for (const event of events) byStream.set(event.streamName, [...(byStream.get(event.streamName) ?? []), event]);
    for (const streamEvents of byStream.values()) await applyToAccount(trx, streamEvents);
  },
};

async function applyToAccount(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void> {
  const accountId = String(events[0].data.accountId);
  const row = await trx('accounts')
    .where('account_id', accountId)
    .forUpdate()
    .first<{ state: AccountState; last_revision: number } | undefined>();
  let state = row?.state ?? accountDecider.initialState();
  let lastRevision = row?.last_revision ?? -1;
  for (const recorded of events) {
    if (recorded.revision <= lastRevision) continue;
    const event = { type: recorded.type, data: recorded.data } as unknown as AccountEvent;
    state = accountDecider.evolve(state, event);
    lastRevision = recorded.revision;
    await applyToApiKeys(trx, event);
  }
  if (row !== undefined && lastRevision === row.last_revision) return;
  await trx('accounts')
    .insert({
      account_id: accountId,
      name: state.name,
      email: state.email,
      plan_id: state.plan?.id ?? null,
      state: JSON.stringify(state),
      last_revision: lastRevision,
      updated_at: trx.fn.now(),
    })
    .onConflict('account_id')
    .merge();
}

async function applyToApiKeys(trx: Knex.Transaction, event: AccountEvent): Promise<void> {
  if (event.type === 'ApiKeyIssued') {
    const d = event.data;
    await trx('api_keys')
      .insert({
        key_hash: d.keyHash,
        key_id: d.keyId,
        account_id: d.accountId,
        key_prefix: d.keyPrefix,
        encrypted_key: d.encryptedKey,
        issued_at: d.issuedAt,
        read_only: d.readOnly === true,
      })
      .onConflict('key_hash')
      .ignore();
  } else if (event.type === 'ApiKeyRevoked') {
    await trx('api_keys')
      .where('key_id', event.data.keyId)
      .whereNull('revoked_at')
      .update({ revoked_at: event.data.revokedAt });
    // Delivered when this batch commits, i.e. when the revocation becomes visible: API processes evict the key from their caches.
    await trx.raw('SELECT pg_notify(?, ?)', [API_KEY_REVOCATIONS_CHANNEL, event.data.keyId]);
  } else if (ACCESS_EVENTS.has(event.type)) {
    // The account's keys now answer otherwise (403, or again 200): every cached lookup of them is dropped, and open streams end.
    await trx.raw('SELECT pg_notify(?, key_id) FROM api_keys WHERE account_id = ?', [
      API_KEY_REVOCATIONS_CHANNEL,
      event.data.accountId,
    ]);
  }
}
