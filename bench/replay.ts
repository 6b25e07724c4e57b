import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import { AccountAdministration } from '../application/accounts/account-administration.js';
import type { AccountCommandHandler } from '../application/accounts/account-commands.js';
import { CommandHandler } from '../application/command-handler.js';
import type { EventFilter, EventStore } from '../application/ports/event-store.js';
import type { IdGenerator } from '../application/ports/id-generator.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../domain/account/decider.js';
import { ACCOUNT_EVENT_TYPES } from '../domain/account/events.js';
import { loadConfig } from '../infrastructure/config/config.js';
import { TOKENS } from '../infrastructure/composition/tokens.js';
import { createContainer } from '../infrastructure/composition/create-container.js';
import { createLogger } from '../infrastructure/observability/create-logger.js';
import { PROJECTIONS } from '../infrastructure/features/features.js';
import type { Storage } from '../infrastructure/database/open-storage.js';
import { rebuildProjections } from '../infrastructure/processing/rebuild.js';
import { createTestDatabase } from '../test/support/postgres.js';
import { seedAccountHistory, seedJobStreams } from './seed-store.js';
import { QUICK } from './settings.js';

const PAGE = 1000;
const ORDER = 'ORDER BY transaction_id, global_position';

/**
 * Replaying a large store through the store's own reads, against a raw
 * sequential SELECT of the same rows (a server-side cursor, same page size):
 * the whole store, the accounts projection's filter over it (a rebuild's read
 * side), one busy account's stream, folding that stream as every command on
 * the account did before snapshots, a command with and without them, and a
 * rebuild of every read model. The store is seeded straight into its tables;
 * BENCH_EVENTS sets its size.
 */
export async function benchReplay(): Promise<void> {
  const totalEvents = Number(process.env.BENCH_EVENTS ?? (QUICK ? 100_000 : 1_000_000));
  const accountEvents = Math.round(totalEvents / 10);
  const database = await createTestDatabase('bench_replay');
  const config = loadConfig({
    DATABASE_URL: database.url,
    MASTER_KEY: randomBytes(32).toString('hex'),
    WARM_EXTRACTOR_PROCESSES: '0',
  });
  const { container, close } = await createContainer(config, createLogger('silent'));
  const raw = new pg.Client({ connectionString: database.url });
  await raw.connect();
  try {
    const db = container.resolve<Knex>(TOKENS.database);
    const store = container.resolve<EventStore>(TOKENS.eventStore);
    const { accountId } = await container
      .resolve(AccountAdministration)
      .openAccount({ name: 'Busy', email: 'busy@example.com', planId: 'custom', addOns: [] });
    const seeding = performance.now();
    await seedAccountHistory(db, accountId, accountEvents);
    await seedJobStreams(db, Math.round((totalEvents - accountEvents) / 3), accountId);
    await db.raw('VACUUM ANALYZE es_events');
    const [{ count }] = (await db('es_events').count<{ count: string }[]>('* as count')) as Array<{ count: string }>;
    console.log(
      `replay: store of ${Number(count).toLocaleString('en')} events (${accountEvents.toLocaleString('en')} on one account) seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );

    const line = (label: string, port: { events: number; ms: number }, baseline: { events: number; ms: number }) => {
      const rate = (result: { events: number; ms: number }) => (result.events / result.ms) * 1000;
      console.log(
        `replay ${label}: ${port.events.toLocaleString('en')} events, ${rate(port).toFixed(0)} events/s (${port.ms.toFixed(0)} ms); ` +
          `raw SELECT ${rate(baseline).toFixed(0)} events/s (${baseline.ms.toFixed(0)} ms); ratio ${(rate(port) / rate(baseline)).toFixed(2)}`,
      );
    };
    const wholeStoreRaw = await rawCursor(raw, `SELECT * FROM es_events ${ORDER}`);
    line('whole store', await readAllThroughPort(store), wholeStoreRaw);
    const accountsFilter: EventFilter = { eventTypes: ACCOUNT_EVENT_TYPES, streamPrefixes: ['account-'] };
    line(
      "accounts projection's filter",
      await readAllThroughPort(store, accountsFilter),
      await rawCursor(raw, `SELECT * FROM es_events WHERE stream_name LIKE 'account-%' ${ORDER}`),
    );
    const stream = `account-${accountId}`;
    const streamPort = await timed(async () => (await store.readStream(stream)).length);
    const streamRaw = await timed(
      async () =>
        (await raw.query('SELECT * FROM es_events WHERE stream_name = $1 ORDER BY stream_revision', [stream]))
          .rowCount ?? 0,
    );
    line("one account's stream", streamPort, streamRaw);
    const withoutSnapshots = new CommandHandler(
      store,
      accountDecider,
      ACCOUNT_CATEGORY,
      container.resolve<IdGenerator>(TOKENS.ids),
    );
    const fold = await timed(async () => (await withoutSnapshots.load(accountId)).revision + 1);
    console.log(
      `account fold without snapshots (what each command on the account paid before them): ${fold.events.toLocaleString('en')} events in ${fold.ms.toFixed(0)} ms; ` +
        `reading the stream alone ${streamPort.ms.toFixed(0)} ms; ratio ${(fold.ms / streamPort.ms).toFixed(2)}`,
    );
    // The service's own handler: its first load folds everything once and stores the state; later commands start from it.
    const accounts = container.resolve<AccountCommandHandler>(TOKENS.accountCommands);
    await accounts.load(accountId);
    const command = (jobId: string) => ({
      type: 'ReserveDownload' as const,
      data: { jobId, pendingLimit: 100, now: new Date().toISOString() },
    });
    const release = (jobId: string) => ({
      type: 'ReleaseDownload' as const,
      data: { jobId, now: new Date().toISOString() },
    });
    const snapshotted: number[] = [];
    const plain: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      for (const [handler, times] of [
        [accounts, snapshotted],
        [withoutSnapshots, plain],
      ] as const) {
        const jobId = randomUUID();
        const started = performance.now();
        await handler.handle(accountId, command(jobId));
        times.push(performance.now() - started);
        await handler.handle(accountId, release(jobId));
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    console.log(
      `a reservation on an account of ${fold.events.toLocaleString('en')} events (median of 5): from a snapshot ${median(snapshotted).toFixed(1)} ms; ` +
        `folding the whole stream ${median(plain).toFixed(1)} ms; ratio ${(median(snapshotted) / median(plain)).toFixed(4)}`,
    );

    // What `npm run rebuild-projections` does: every read model replayed into new tables, then swapped in.
    const rebuild = await timed(async () => {
      await rebuildProjections(PROJECTIONS, {
        db,
        store,
        connectionString: database.url,
        acquireLock: container.resolve<Storage>(TOKENS.storage).acquireLock,
        logger: createLogger('silent'),
      });
      return wholeStoreRaw.events;
    });
    console.log(
      `rebuild of every read model over ${rebuild.events.toLocaleString('en')} events: ${rebuild.ms.toFixed(0)} ms, ${((rebuild.events / rebuild.ms) * 1000).toFixed(0)} events/s; ` +
        `a raw SELECT of the whole store ${wholeStoreRaw.ms.toFixed(0)} ms; ratio ${(rebuild.ms / wholeStoreRaw.ms).toFixed(2)}`,
    );
  } finally {
    await raw.end();
    await close();
    await database.drop();
  }
}

async function readAllThroughPort(store: EventStore, filter?: EventFilter): Promise<{ events: number; ms: number }> {
  return timed(async () => {
    let after: string | null = null;
    let events = 0;
    for (;;) {
      const page = await store.readAll({ after, maxCount: PAGE, filter });
      if (page.length === 0) return events;
      events += page.length;
      after = page[page.length - 1].position;
    }
  });
}

async function rawCursor(client: pg.Client, query: string): Promise<{ events: number; ms: number }> {
  return timed(async () => {
    await client.query('BEGIN');
    try {
      await client.query(`DECLARE replay NO SCROLL CURSOR FOR ${query}`);
      let events = 0;
      for (;;) {
        const { rowCount } = await client.query(`FETCH ${PAGE} FROM replay`);
        if (!rowCount) return events;
        events += rowCount;
      }
    } finally {
      await client.query('COMMIT');
    }
  });
}

async function timed(work: () => Promise<number>): Promise<{ events: number; ms: number }> {
  const started = performance.now();
  const events = await work();
  return { events, ms: performance.now() - started };
}
