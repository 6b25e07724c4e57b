import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { CommandHandler, type SnapshotPolicy } from '../../application/command-handler.js';
import type { EventStore, ReadStreamOptions, RecordedEvent } from '../../application/ports/event-store.js';
import type { SnapshotStore, StreamSnapshot } from '../../application/ports/snapshot-store.js';
import type { AccountCommand } from '../../domain/account/commands.js';
import type { AccountEvent } from '../../domain/account/events.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../domain/account/decider.js';
import type { AccountState } from '../../domain/account/state.js';
import { ACCOUNT_STATE_VERSION } from '../../domain/account/state-version.js';
import { PendingDownloadsLimitError } from '../../domain/errors.js';
import { DEFAULT_PLAN_CATALOG } from '../../infrastructure/config/plan-catalog.js';
import { InMemoryEventStore } from '../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { PostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.js';
import { createKnex } from '../../infrastructure/postgres/create-knex.js';
import { migrateReadModels } from '../../infrastructure/postgres/read-model-schema.js';
import { InMemorySnapshotStore } from '../../infrastructure/snapshots/in-memory-snapshot-store.js';
import { PostgresSnapshotStore } from '../../infrastructure/snapshots/postgres-snapshot-store.js';
import { RandomIds } from '../../infrastructure/system/random-ids.js';
import { type TestDatabase, createTestDatabase } from '../support/postgres.js';
import { READ_MODEL_SCHEMA } from '../../infrastructure/features/features.js';

const ids = new RandomIds();
const now = () => new Date().toISOString();

/** Counts what the handler reads, so a test can tell a fold from a snapshot from a fold from the start. */
class ReadCountingStore {
  eventsRead = 0;
  readonly store: EventStore;

  constructor(inner: EventStore) {
    this.store = new Proxy(inner, {
      get: (target, property, receiver) => {
        if (property !== 'readStream') return Reflect.get(target, property, receiver);
        return async (stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> => {
          const events = await target.readStream(stream, options);
          this.eventsRead += events.length;
          return events;
        };
      },
    });
  }
}

function policy(store: SnapshotStore, afterEvents: number, errors: unknown[] = []): SnapshotPolicy {
  return { store, version: ACCOUNT_STATE_VERSION, afterEvents, onError: (error) => errors.push(error) };
}

/** A history touching every part of the account state: plan, add-ons, grants, keys, reservations, charges, releases, lookups. */
function representativeHistory(accountId: string, at: (minutes: number) => string): AccountCommand[] {
  const jobs = Array.from({ length: 6 }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`);
  return [
    {
      type: 'OpenAccount',
      data: {
        accountId,
        name: 'Ada',
        email: 'ada@example.com',
        plan: DEFAULT_PLAN_CATALOG.starter,
        addOns: ['channel_list'],
        now: at(0),
      },
    },
    {
      type: 'IssueApiKey',
      data: { keyId: 'key-1', keyPrefix: 'vds_abcd', keyHash: 'hash-1', encryptedKey: 'sealed-1', now: at(1) },
    },
    { type: 'EnableAddOn', data: { addOn: 'client_download', now: at(2) } },
    { type: 'GrantExtraUnits', data: { feature: 'bandwidth_mb', units: 500, reason: 'goodwill', now: at(3) } },
    ...jobs.map(
      (jobId, i): AccountCommand => ({
        type: 'ReserveDownload',
        data: {
          jobId,
          pendingLimit: 100,
          now: at(4 + i),
          ...(i === 0 ? { idempotency: { key: 'retry-1', requestHash: 'h1' } } : {}),
        },
      }),
    ),
    { type: 'ChargeBandwidth', data: { jobId: jobs[0], fileSizeBytes: 12_345_678, now: at(20) } },
    { type: 'ChargeBandwidth', data: { jobId: jobs[1], fileSizeBytes: 98_765_432, now: at(21) } },
    { type: 'ReleaseDownload', data: { jobId: jobs[2], now: at(22) } },
    {
      type: 'ReserveLookup',
      data: {
        lookupId: 'lookup-1',
        feature: 'channel_list',
        units: 3,
        subject: 'https://www.youtube.com/@someone',
        now: at(23),
      },
    },
    { type: 'ChargeLookup', data: { lookupId: 'lookup-1', units: 2, now: at(24) } },
    {
      type: 'ReserveLookup',
      data: {
        lookupId: 'lookup-2',
        feature: 'info',
        units: 1,
        subject: 'https://www.youtube.com/watch?v=abc',
        now: at(25),
      },
    },
    {
      type: 'IssueApiKey',
      data: { keyId: 'key-2', keyPrefix: 'vds_efgh', keyHash: 'hash-2', encryptedKey: 'sealed-2', now: at(26) },
    },
    { type: 'RevokeApiKey', data: { keyId: 'key-1', now: at(27) } },
    { type: 'ChangePlan', data: { plan: DEFAULT_PLAN_CATALOG.growth, now: at(28) } },
    { type: 'ScheduleCancellation', data: { fallbackPlan: DEFAULT_PLAN_CATALOG.free, now: at(29) } },
  ];
}

describe('account snapshots: commands fold from a stored state', () => {
  async function accountWithReservations(
    handler: CommandHandler<AccountCommand, AccountEvent, AccountState>,
    count: number,
  ): Promise<string> {
    const accountId = randomUUID();
    await handler.handle(accountId, {
      type: 'OpenAccount',
      data: { accountId, name: 'A', email: 'a@example.com', plan: DEFAULT_PLAN_CATALOG.custom, addOns: [], now: now() },
    });
    for (let i = 0; i < count; i += 1) {
      const jobId = randomUUID();
      await handler.handle(accountId, { type: 'ReserveDownload', data: { jobId, pendingLimit: 100, now: now() } });
      await handler.handle(accountId, {
        type: 'ChargeBandwidth',
        data: { jobId, fileSizeBytes: 1_000_000 * (i + 1), now: now() },
      });
    }
    return accountId;
  }

  it('folds only the events after the snapshot, to the same state and revision as a fold from the first event', async () => {
    const events = new InMemoryEventStore();
    const counting = new ReadCountingStore(events);
    const snapshots = new InMemorySnapshotStore();
    const withSnapshots = new CommandHandler(counting.store, accountDecider, ACCOUNT_CATEGORY, ids, {
      snapshots: policy(snapshots, 10),
    });
    const plain = new CommandHandler(events, accountDecider, ACCOUNT_CATEGORY, ids);
    const accountId = await accountWithReservations(plain, 30);

    const expected = await plain.load(accountId);
    assert.ok(expected.revision > 60);
    const first = await withSnapshots.load(accountId);
    assert.deepEqual(first, expected);
    assert.equal(snapshots.saves, 1, 'a fold of the whole stream stores its state');

    counting.eventsRead = 0;
    const second = await withSnapshots.load(accountId);
    assert.equal(counting.eventsRead, 1, 'only the snapshot’s own event is read back, as its proof');
    assert.deepEqual(second, expected);
  });

  it('appends at the right revision after a snapshot, and stores a newer one once enough events follow it', async () => {
    const events = new InMemoryEventStore();
    const counting = new ReadCountingStore(events);
    const snapshots = new InMemorySnapshotStore();
    const handler = new CommandHandler(counting.store, accountDecider, ACCOUNT_CATEGORY, ids, {
      snapshots: policy(snapshots, 10),
    });
    const accountId = await accountWithReservations(handler, 12);
    const plain = new CommandHandler(events, accountDecider, ACCOUNT_CATEGORY, ids);
    const expected = await plain.load(accountId);
    assert.deepEqual(await handler.load(accountId), expected);
    const stored = await snapshots.load(`account-${accountId}`);
    assert.ok(
      stored !== null && stored.revision >= 10 && stored.revision <= expected.revision,
      `snapshot at ${stored?.revision}`,
    );
    counting.eventsRead = 0;
    await handler.load(accountId);
    assert.ok(counting.eventsRead <= 11, `a load after the last snapshot reads ${counting.eventsRead} events`);
  });

  it('ignores a snapshot whose event is not in the stream at its revision (a restored or replaced store)', async () => {
    const events = new InMemoryEventStore();
    const snapshots = new InMemorySnapshotStore();
    const handler = new CommandHandler(events, accountDecider, ACCOUNT_CATEGORY, ids, {
      snapshots: policy(snapshots, 1),
    });
    const accountId = await accountWithReservations(handler, 3);
    const stream = `account-${accountId}`;
    const real = await snapshots.load(stream);
    assert.ok(real !== null);
    const forged: StreamSnapshot = {
      ...real,
      lastEventId: randomUUID(),
      state: { ...(real.state as object), name: 'Not from this history' },
    };
    snapshots.replace(forged);
    const plain = new CommandHandler(events, accountDecider, ACCOUNT_CATEGORY, ids);
    assert.deepEqual(await handler.load(accountId), await plain.load(accountId));

    snapshots.replace({
      ...real,
      revision: real.revision + 50,
      state: { ...(real.state as object), name: 'From the future' },
    });
    assert.deepEqual(await handler.load(accountId), await plain.load(accountId));
  });

  it('ignores a snapshot taken under another state version', async () => {
    const events = new InMemoryEventStore();
    const snapshots = new InMemorySnapshotStore();
    const handler = new CommandHandler(events, accountDecider, ACCOUNT_CATEGORY, ids, {
      snapshots: policy(snapshots, 1),
    });
    const accountId = await accountWithReservations(handler, 2);
    const stream = `account-${accountId}`;
    const real = await snapshots.load(stream);
    assert.ok(real !== null);
    snapshots.replace({
      ...real,
      version: ACCOUNT_STATE_VERSION - 1,
      state: { ...(real.state as object), email: 'old-shape@example.com' },
    });
    const loaded = await handler.load(accountId);
    assert.equal(loaded.state.email, 'a@example.com');
    assert.equal(
      (await snapshots.load(stream))?.version,
      ACCOUNT_STATE_VERSION,
      'the fold stores a snapshot of the current version again',
    );
  });

  it('keeps deciding correctly when the snapshot store fails, and reports each failure', async () => {
    const events = new InMemoryEventStore();
    const errors: unknown[] = [];
    const broken: SnapshotStore = {
      load: async () => {
        throw new Error('snapshot table unreachable');
      },
      save: async () => {
        throw new Error('snapshot table unreachable');
      },
    };
    const handler = new CommandHandler(events, accountDecider, ACCOUNT_CATEGORY, ids, {
      snapshots: policy(broken, 1, errors),
    });
    const accountId = await accountWithReservations(handler, 2);
    const plain = new CommandHandler(events, accountDecider, ACCOUNT_CATEGORY, ids);
    assert.deepEqual(await handler.load(accountId), await plain.load(accountId));
    assert.ok(errors.length >= 5);
    assert.ok(errors.every((error) => error instanceof Error && error.message === 'snapshot table unreachable'));
  });

  it('folds a history touching every part of the state to the same state through any snapshot point', async () => {
    const base = Date.parse('2026-01-15T10:00:00Z');
    const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    const events = new InMemoryEventStore();
    const plain = new CommandHandler(events, accountDecider, ACCOUNT_CATEGORY, ids);
    const accountId = randomUUID();
    for (const command of representativeHistory(accountId, at)) await plain.handle(accountId, command);
    const expected = await plain.load(accountId);
    // A snapshot after every possible prefix: each must fold on to the same state, JSON round trip included.
    for (let afterEvents = 1; afterEvents <= expected.revision + 1; afterEvents += 1) {
      const snapshots = new InMemorySnapshotStore();
      const recorded = await events.readStream(`account-${accountId}`, { maxCount: afterEvents });
      let state = accountDecider.initialState();
      for (const event of recorded)
        state = accountDecider.evolve(state, { type: event.type, data: event.data } as never);
      const last = recorded[recorded.length - 1];
      snapshots.replace({
        streamName: `account-${accountId}`,
        revision: last.revision,
        lastEventId: last.id,
        version: ACCOUNT_STATE_VERSION,
        state: JSON.parse(JSON.stringify(state)),
      });
      const handler = new CommandHandler(events, accountDecider, ACCOUNT_CATEGORY, ids, {
        snapshots: policy(snapshots, 1_000),
      });
      assert.deepEqual(await handler.load(accountId), expected, `snapshot after ${afterEvents} events`);
    }
  });

  it('has its state version bumped whenever evolve folds the representative history differently', async () => {
    // If this fails, evolve or the state changed: stored snapshots were folded by the old code.
    // Bump ACCOUNT_STATE_VERSION and record the new digest beside it here.
    const digests: Record<number, string> = { 1: 'aa1200b15228a0dd61eb0aa9c4152a7d2ea7caf8e7af7ed8b68ea246d698764b' };
    const base = Date.parse('2026-01-15T10:00:00Z');
    const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    const events = new InMemoryEventStore();
    const handler = new CommandHandler(events, accountDecider, ACCOUNT_CATEGORY, {
      next: (() => {
        let n = 0;
        return () => `00000000-0000-4000-9000-${String(n++).padStart(12, '0')}`;
      })(),
    });
    const accountId = '11111111-2222-4333-8444-555555555555';
    for (const command of representativeHistory(accountId, at)) await handler.handle(accountId, command);
    const { state } = await handler.load(accountId);
    const digest = createHash('sha256').update(canonicalJson(state)).digest('hex');
    assert.equal(
      digest,
      digests[ACCOUNT_STATE_VERSION],
      `account state of version ${ACCOUNT_STATE_VERSION} folds to ${digest}`,
    );
  });
});

describe('account snapshots in PostgreSQL', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  const stores: PostgresEventStore[] = [];
  let db: ReturnType<typeof createKnex>;

  before(async () => {
    database = await createTestDatabase('snapshots');
    for (let i = 0; i < 4; i += 1) stores.push(new PostgresEventStore({ connectionString: database.url, poolSize: 4 }));
    await stores[0].migrate();
    db = createKnex(database.url);
    await migrateReadModels(db, READ_MODEL_SCHEMA);
  });
  after(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await db?.destroy();
    await database?.drop();
  });

  it('never moves a stored snapshot back to an earlier revision', async () => {
    const snapshots = new PostgresSnapshotStore(db);
    const stream = `account-${randomUUID()}`;
    await snapshots.save({ streamName: stream, revision: 200, lastEventId: 'e200', version: 1, state: { at: 200 } });
    await snapshots.save({ streamName: stream, revision: 100, lastEventId: 'e100', version: 1, state: { at: 100 } });
    assert.deepEqual(await snapshots.load(stream), {
      streamName: stream,
      revision: 200,
      lastEventId: 'e200',
      version: 1,
      state: { at: 200 },
    });
    await snapshots.save({ streamName: stream, revision: 300, lastEventId: 'e300', version: 1, state: { at: 300 } });
    assert.equal((await snapshots.load(stream))?.revision, 300);
    assert.equal(await snapshots.load(`account-${randomUUID()}`), null);
  });

  it('admits exactly 100 of 150 reservations raced by four instances that fold from snapshots', async () => {
    const handlers = stores.map(
      (store) =>
        new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids, {
          snapshots: policy(new PostgresSnapshotStore(db), 5),
        }),
    );
    const accountId = randomUUID();
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
    assert.equal(results.filter((result) => result.status === 'fulfilled').length, 100);
    assert.equal(
      results.filter((result) => result.status === 'rejected' && result.reason instanceof PendingDownloadsLimitError)
        .length,
      50,
    );
    const stored = await new PostgresSnapshotStore(db).load(`account-${accountId}`);
    assert.ok(stored !== null && stored.revision > 0, 'the race left a snapshot behind');
    const plain = new CommandHandler(stores[2], accountDecider, ACCOUNT_CATEGORY, ids);
    assert.deepEqual(await handlers[1].load(accountId), await plain.load(accountId));
    assert.equal((await plain.load(accountId)).state.pendingJobs.length, 100);
  });
});

/** JSON with sorted keys, so the digest does not depend on the order evolve writes properties in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
