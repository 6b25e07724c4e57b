import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CommandHandler } from '../../../application/command-handler.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import { PendingDownloadsLimitError } from '../../../domain/errors.js';
import { DEFAULT_PLAN_CATALOG } from '../../../infrastructure/config/plan-catalog.js';
import { PostgresEventStore } from '../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';

describe('account limits across service instances', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  const stores: PostgresEventStore[] = [];

  before(async () => {
    database = await createTestDatabase('reservations');
    for (let i = 0; i < 4; i += 1) stores.push(new PostgresEventStore({ connectionString: database.url, poolSize: 4 }));
    await stores[0].migrate();
  });
  after(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await database?.drop();
  });

  it('admits exactly 100 of 150 reservations raced by four instances, each with its own in-process queue', async () => {
    const ids = new RandomIds();
    // One handler per store stands for one API process: only optimistic concurrency stands between them.
    const handlers = stores.map((store) => new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids));
    const accountId = randomUUID();
    const now = () => new Date().toISOString();
    await handlers[0].handle(accountId, {
      type: 'OpenAccount',
      data: {
        accountId,
        name: 'A',
        email: 'a@example.com',
        plan: DEFAULT_PLAN_CATALOG.starter,
        addOns: [],
        now: now(),
      },
    });
    const results = await Promise.allSettled(
      Array.from({ length: 150 }, (_, i) =>
        handlers[i % handlers.length].handle(accountId, {
          type: 'ReserveDownload',
          data: { jobId: randomUUID(), pendingLimit: 100, now: now() },
        }),
      ),
    );
    const admitted = results.filter((result) => result.status === 'fulfilled').length;
    const refused = results.filter(
      (result) => result.status === 'rejected' && result.reason instanceof PendingDownloadsLimitError,
    ).length;
    assert.equal(admitted, 100);
    assert.equal(refused, 50);
    const { state } = await handlers[1].load(accountId);
    assert.equal(state.pendingJobs.length, 100);
  });
});
