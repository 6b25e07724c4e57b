import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { AppendNotifier } from '../../../../infrastructure/event-store/postgres/append-notifier.js';
import { NotificationListener } from '../../../../infrastructure/event-store/postgres/notification-listener.js';
import { PostgresEventStore } from '../../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { EVENTS_CHANNEL } from '../../../../infrastructure/event-store/postgres/schema.js';
import { type TestDatabase, createTestDatabase } from '../../../support/postgres.js';
import { newEvent, take } from '../contract.js';

describe('AppendNotifier', () => {
  it('sends the categories of appends committed in one turn together, once', async () => {
    const sent: string[] = [];
    const notifier = new AppendNotifier(async (categories) => void sent.push(categories));
    notifier.notify('download');
    notifier.notify('account');
    notifier.notify('download');
    await notifier.drain();
    assert.deepEqual(sent, ['download,account']);
  });

  it('gathers what commits while a notification is on its way into the next one', async () => {
    const sent: string[] = [];
    let release: () => void = () => {};
    const notifier = new AppendNotifier(async (categories) => {
      sent.push(categories);
      if (sent.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    notifier.notify('download');
    await new Promise((resolve) => setImmediate(resolve));
    notifier.notify('account');
    notifier.notify('info');
    release();
    await notifier.drain();
    assert.deepEqual(sent, ['download', 'account,info']);
  });
});

describe('PostgreSQL event store: notifications and filtered reads', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let store: PostgresEventStore;
  const category = () => `cat${randomUUID().replace(/-/g, '').slice(0, 8)}`;

  before(async () => {
    database = await createTestDatabase('es_notify');
    // Polling far slower than the tests' patience: only a notification can deliver in time.
    store = new PostgresEventStore({ connectionString: database.url, pollIntervalMs: 60_000 });
    await store.migrate();
  });
  after(async () => {
    await store?.close();
    await database?.drop();
  });

  /** The backends of this database whose last statement was a LISTEN: stores waiting for notifications. */
  async function listeningConnections(): Promise<number[]> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
      );
      return rows.map((row) => row.pid);
    } finally {
      await client.end();
    }
  }

  async function waitUntil(condition: () => Promise<boolean>, message: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await condition())) {
      assert.ok(Date.now() < deadline, message);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('notifies other processes after the commit, naming the categories, a burst in few notifications', async () => {
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    const payloads: string[] = [];
    listener.on('notification', (message) => payloads.push(message.payload ?? ''));
    await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
    try {
      const [a, b] = [category(), category()];
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.appendToStream(`${i % 2 === 0 ? a : b}-${i}`, [newEvent('Happened')], {
            expectedRevision: 'no_stream',
          }),
        ),
      );
      const deadline = Date.now() + 5_000;
      const named = () => new Set(payloads.flatMap((payload) => payload.split(',')));
      while (!(named().has(a) && named().has(b)) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
      assert.ok(named().has(a) && named().has(b), `notified: ${payloads.join(' | ')}`);
      assert.ok(payloads.length < 20, `${payloads.length} notifications for 20 appends`);
    } finally {
      await listener.end();
    }
  });

  it("wakes a subscription of another store at once for its category's appends", async () => {
    const reader = new PostgresEventStore({ connectionString: database.url, pollIntervalMs: 60_000 });
    const wanted = category();
    const subscription = reader.subscribeToAll({ filter: { streamPrefixes: [`${wanted}-`] } });
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      const before = new Set(await listeningConnections());
      // The first read finds nothing and the subscription starts waiting: its store connects and listens.
      const first = take(iterator, 1, 5_000);
      await waitUntil(
        async () => (await listeningConnections()).some((pid) => !before.has(pid)),
        'the subscription never listened',
      );
      await store.appendToStream(`${wanted}-1`, [newEvent('Wanted')], { expectedRevision: 'no_stream' });
      assert.deepEqual(
        (await first).map((event) => event.type),
        ['Wanted'],
      );
    } finally {
      await subscription.close();
      await reader.close();
    }
  });

  it("wakes only the waiters interested in a notification's categories", async () => {
    const listener = new NotificationListener(database.url, `unused_${randomUUID().slice(0, 8)}`);
    const controller = new AbortController();
    try {
      // The first wait connects and listens; one that times out at once leaves the listener listening, so the
      // waits below register their interest without waiting for a connection.
      await listener.wait(0, controller.signal);
      const downloads = listener.wait(
        2_000,
        controller.signal,
        (categories) => categories === null || categories.includes('download'),
      );
      const accounts = listener.wait(
        300,
        controller.signal,
        (categories) => categories === null || categories.includes('account'),
      );
      // Both waiters are registered once the promise jobs queued by their calls have run, before the next macrotask.
      await new Promise((resolve) => setImmediate(resolve));
      listener.announce(['download']);
      assert.equal(await downloads, true);
      assert.equal(await accounts, false, 'timed out instead of waking');
    } finally {
      controller.abort();
      await listener.close();
    }
  });

  it('ends a wait at once when it had to connect, and wakes every waiter when the connection is lost', async () => {
    const channel = `lost_${randomUUID().slice(0, 8)}`;
    const listener = new NotificationListener(database.url, channel);
    const controller = new AbortController();
    try {
      // Nothing was heard before the connection listened: the caller is told to read at once.
      assert.equal(await listener.wait(60_000, controller.signal), true);
      const waiting = listener.wait(
        60_000,
        controller.signal,
        (categories) => categories === null || categories.includes('never'),
      );
      await new Promise((resolve) => setImmediate(resolve));
      const killer = new pg.Client({ connectionString: database.url });
      await killer.connect();
      try {
        await killer.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1`, [
          `LISTEN ${pg.escapeIdentifier(channel)}`,
        ]);
        // Woken by the loss, although no notification matched its interest and its timeout is far off.
        assert.equal(await waiting, true);
        assert.equal(await listener.wait(60_000, controller.signal), true, 'the next wait connects again');
        const heard = listener.wait(60_000, controller.signal);
        await new Promise((resolve) => setImmediate(resolve));
        await killer.query(`SELECT pg_notify($1, 'any')`, [channel]);
        assert.equal(await heard, true, 'listening again after the loss');
      } finally {
        await killer.end();
      }
    } finally {
      controller.abort();
      await listener.close();
    }
  });

  it('reads filters over several categories, event types and partial prefixes in global order', async () => {
    const [a, b, c] = [category(), category(), category()];
    const appended: Array<[string, string]> = [];
    for (let i = 0; i < 12; i += 1) {
      const stream = `${[a, b, c][i % 3]}-s${i % 2}`;
      const type = i % 4 === 0 ? 'Rare' : 'Common';
      await store.appendToStream(stream, [newEvent(type, { i })], { expectedRevision: 'any' });
      appended.push([stream, type]);
    }
    const read = async (filter: { streamPrefixes?: string[]; eventTypes?: string[] }) =>
      (await store.readAll({ filter, maxCount: 1000 }))
        .filter((event) => [a, b, c].some((name) => event.streamName.startsWith(`${name}-`)))
        .map((event) => Number(event.data.i));
    const expected = (keep: (stream: string, type: string) => boolean) =>
      appended.flatMap(([stream, type], i) => (keep(stream, type) ? [i] : []));
    // Global reads stop before any transaction still open on the server, another spec file's too, so wait until all are readable.
    await waitUntil(
      async () => (await read({})).length === appended.length,
      'the appended events become readable in global order',
    );

    assert.deepEqual(
      await read({ streamPrefixes: [`${a}-`, `${c}-`] }),
      expected((stream) => stream.startsWith(`${a}-`) || stream.startsWith(`${c}-`)),
    );
    assert.deepEqual(
      await read({ streamPrefixes: [`${b}-`], eventTypes: ['Rare'] }),
      expected((stream, type) => stream.startsWith(`${b}-`) && type === 'Rare'),
    );
    assert.deepEqual(
      await read({ eventTypes: ['Rare', 'Common'] }),
      expected(() => true),
    );
    assert.deepEqual(
      await read({ streamPrefixes: [`${a}-s1`] }),
      expected((stream) => stream === `${a}-s1`),
    );
    assert.deepEqual(await read({ eventTypes: [] }), []);
    // A page limit applies to the merged order, not to each category.
    const page = await store.readAll({ filter: { streamPrefixes: [`${a}-`, `${b}-`, `${c}-`] }, maxCount: 4 });
    assert.deepEqual(
      page.map((event) => Number(event.data.i)),
      [0, 1, 2, 3],
    );
  });
});
