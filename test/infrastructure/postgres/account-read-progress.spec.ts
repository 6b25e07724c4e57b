import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { initialAccountState } from '../../../domain/account/state.js';
import { PostgresEventStore } from '../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { createKnex } from '../../../infrastructure/postgres/create-knex.js';
import { PoolPreparedReads } from '../../../infrastructure/postgres/pool-prepared-reads.js';
import { PostgresAccountReadProgress } from '../../../infrastructure/postgres/postgres-account-read-progress.js';
import { migrateReadModels } from '../../../infrastructure/postgres/read-model-schema.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';

/** What the accounts read model tells the API about a reservation, read as GET /me would see it. */
describe("the account read model's progress, for read-your-writes", () => {
  let database: TestDatabase;
  let db: Knex;
  let store: PostgresEventStore;
  let reads: PoolPreparedReads;
  const waitMs = 300;

  before(async () => {
    database = await createTestDatabase('account_read_progress');
    db = createKnex(database.url);
    await migrateReadModels(db);
    store = new PostgresEventStore({ connectionString: database.url });
    await store.migrate();
    reads = new PoolPreparedReads(database.url, 2);
  });
  after(async () => {
    await reads.close();
    await store.close();
    await db.destroy();
    await database.drop();
  });

  /** An account stream of `events` events, and a read-model row folded to `revision` with these reservations open. */
  async function account(
    events: number,
    row: { revision: number; pendingJobs?: string[]; pendingLookups?: string[] },
  ): Promise<string> {
    const accountId = randomUUID();
    const stream = Array.from({ length: events }, () => ({ id: randomUUID(), type: 'Noted', data: { accountId } }));
    await store.appendToStream(`account-${accountId}`, stream, { expectedRevision: 'no_stream' });
    const pendingLookups = (row.pendingLookups ?? []).map((lookupId) => ({
      lookupId,
      feature: 'info',
      units: 1,
      subject: 'x',
    }));
    const state = { ...initialAccountState(), pendingJobs: row.pendingJobs ?? [], pendingLookups };
    await db('accounts').insert({
      account_id: accountId,
      name: 'A',
      email: 'a@example.com',
      state: JSON.stringify(state),
      last_revision: row.revision,
    });
    return accountId;
  }

  it('reads a job or lookup still pending as not settled, and one gone from a caught-up row as settled', async () => {
    const progress = new PostgresAccountReadProgress(reads, store, waitMs);
    const accountId = await account(3, { revision: 2, pendingJobs: ['job-a'], pendingLookups: ['lookup-a'] });
    assert.equal(await progress.showsSettled(accountId, 'job-a'), false);
    assert.equal(await progress.showsSettled(accountId, 'lookup-a'), false);
    assert.equal(await progress.showsSettled(accountId, 'job-b'), true);
  });

  it('does not take a reservation the row has not reached yet for a settled one', async () => {
    const progress = new PostgresAccountReadProgress(reads, store, waitMs);
    // The stream holds the reservation at revision 4; the row is folded only to revision 2 and has never seen it.
    const accountId = await account(5, { revision: 2 });
    assert.equal(await progress.showsSettled(accountId, 'job-new'), false);
    await db('accounts').where({ account_id: accountId }).update({ last_revision: 4 });
    assert.equal(
      await progress.showsSettled(accountId, 'job-new'),
      true,
      'once the row reaches the head without it, it was settled',
    );
  });

  it('waits for a revision until the row reaches it, and gives up after the bounded wait', async () => {
    const progress = new PostgresAccountReadProgress(reads, store, waitMs);
    const accountId = await account(2, { revision: 0 });
    const started = Date.now();
    assert.equal(await progress.waitForRevision(accountId, 1), false);
    assert.ok(Date.now() - started >= waitMs, 'waited the whole bound');
    const waiting = new PostgresAccountReadProgress(reads, store, 20_000).waitForRevision(accountId, 1);
    await db('accounts').where({ account_id: accountId }).update({ last_revision: 1 });
    assert.equal(await waiting, true);
  });
});
