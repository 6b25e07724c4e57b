import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ChargeVisibility } from '../../../application/accounts/charge-visibility.js';
import { ListDownloadJobs } from '../../../application/downloads/list-download-jobs.js';
import type { DownloadJobView } from '../../../application/ports/read-models.js';
import type { PreparedReads } from '../../../infrastructure/postgres/prepared-reads.js';
import { initialAccountState } from '../../../domain/account/state.js';
import { PostgresEventStore } from '../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { createKnex } from '../../../infrastructure/postgres/create-knex.js';
import { PoolPreparedReads } from '../../../infrastructure/postgres/pool-prepared-reads.js';
import { PostgresAccountReadProgress } from '../../../infrastructure/postgres/postgres-account-read-progress.js';
import { migrateReadModels } from '../../../infrastructure/postgres/read-model-schema.js';
import { completedJobView } from '../../support/completed-job-view.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { READ_MODEL_SCHEMA } from '../../../infrastructure/features/features.js';

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
    await migrateReadModels(db, READ_MODEL_SCHEMA);
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
    const settled = await progress.settledAmong(accountId, ['job-a', 'lookup-a', 'job-b']);
    assert.deepEqual([...settled], ['job-b']);
  });

  it('does not take a reservation the row has not reached yet for a settled one', async () => {
    const progress = new PostgresAccountReadProgress(reads, store, waitMs);
    // The stream holds the reservation at revision 4; the row is folded only to revision 2 and has never seen it.
    const accountId = await account(5, { revision: 2 });
    assert.equal((await progress.settledAmong(accountId, ['job-new'])).size, 0);
    await db('accounts').where({ account_id: accountId }).update({ last_revision: 4 });
    assert.ok(
      (await progress.settledAmong(accountId, ['job-new'])).has('job-new'),
      'once the row reaches the head without it, it was settled',
    );
  });

  it('answers a page of finished jobs of a lagging account after one bounded wait, with a bounded number of reads', async () => {
    // The row is three events behind the stream's head and stays there, as with a stopped accounts projection.
    const accountId = await account(6, { revision: 2 });
    const counted = countingReads(reads);
    const jobs = new ListDownloadJobs(
      pageOf(finishedJobs(accountId, 100)),
      new ChargeVisibility(new PostgresAccountReadProgress(counted, store, waitMs)),
    );
    const started = Date.now();
    const page = await jobs.execute({ accountId, limit: 100 });
    const elapsed = Date.now() - started;
    assert.equal(page.jobs.length, 100);
    assert.ok(
      page.jobs.every((job) => job.status === 'IN_PROGRESS'),
      'not yet shown settled: read as under way',
    );
    assert.ok(elapsed < 2 * waitMs + 1_000, `one wait for the whole page, not one per job (${elapsed} ms)`);
    assert.ok(counted.count() <= 25, `${counted.count()} reads of the accounts read model for one page`);
  });

  it('waits once for a lagging row however many ask at once, then not again for a while', async () => {
    const accountId = await account(6, { revision: 2 });
    const counted = countingReads(reads);
    const progress = new PostgresAccountReadProgress(counted, store, waitMs);
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 10 }, () => progress.settledAmong(accountId, ['job-a'])));
    assert.ok(answers.every((settled) => settled.size === 0));
    assert.ok(counted.count() <= 30, `${counted.count()} reads for ten requests sharing one wait`);
    const again = Date.now();
    assert.equal((await progress.settledAmong(accountId, ['job-a'])).size, 0);
    assert.ok(Date.now() - again < waitMs, 'a lagging account is not waited for again at once');
    assert.ok(again - started >= waitMs, 'the first requests did wait');
    await db('accounts').where({ account_id: accountId }).update({ last_revision: 5 });
    assert.ok((await progress.settledAmong(accountId, ['job-a'])).has('job-a'), 'a caught-up row is read at once');
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

/** The reads, counting every statement run through them. */
function countingReads(reads: PreparedReads): PreparedReads & { count(): number } {
  let count = 0;
  return {
    query: (name, text, values) => {
      count += 1;
      return reads.query(name, text, values);
    },
    close: () => reads.close(),
    count: () => count,
  };
}

function finishedJobs(accountId: string, count: number): DownloadJobView[] {
  return Array.from({ length: count }, (_, index) =>
    completedJobView({ jobId: `job-${index}`, accountId, fileKey: `${accountId}/job-${index}.m4a` }),
  );
}

/** A jobs read model whose every listing is this page. */
function pageOf(views: DownloadJobView[]) {
  return { get: async () => null, list: async ({ limit }: { limit: number }) => views.slice(0, limit) };
}
