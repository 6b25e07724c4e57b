import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Checkpoint, EventStore, RecordedEvent } from '../../../application/ports/event-store.js';
import type { Logger } from '../../../application/ports/logger.js';
import { createKnex } from '../../../infrastructure/postgres/create-knex.js';
import { CatchUpTimeoutError } from '../../../infrastructure/processing/catch-up-timeout-error.js';
import { CHECKPOINT_TABLE } from '../../../infrastructure/processing/checkpoint-schema.js';
import type { Projection } from '../../../projections/projection.js';
import {
  ProjectionRunner,
  type ProjectionRunnerOptions,
} from '../../../infrastructure/processing/projection-runner.js';
import { ProjectionBusyError, rebuildProjections } from '../../../infrastructure/processing/rebuild.js';
import { createTestDatabase } from '../../support/postgres.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { openEmbeddedDatabase } from '../../../infrastructure/embedded/embedded-database.js';
import { PgliteEventStore } from '../../../infrastructure/event-store/pglite/pglite-event-store.js';
import { inProcessLocks } from '../../../infrastructure/embedded/in-process-locks.js';
import type { AcquireLock } from '../../../infrastructure/postgres/session-advisory-lock.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

interface CountingProjection extends Projection {
  readonly table: string;
}

/**
 * Counts events per stream with a plain increment: unlike a real projection
 * it is deliberately not idempotent, so any event applied twice shows.
 */
function countingProjection(name: string, hooks: CountingHooks = {}): CountingProjection {
  const table = `${name}_counts`;
  return {
    name,
    table,
    filter: { streamPrefixes: ['counted-'] },
    tables: [table],
    async apply(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void> {
      await hooks.beforeWrites?.(events);
      for (const event of events) {
        await trx.raw(
          `INSERT INTO ?? AS c (stream_name, events) VALUES (?, 1) ON CONFLICT (stream_name) DO UPDATE SET events = c.events + 1`,
          [table, event.streamName],
        );
      }
      await hooks.afterWrites?.(events);
    },
  };
}

interface CountingHooks {
  beforeWrites?: (events: RecordedEvent[]) => Promise<void>;
  afterWrites?: (events: RecordedEvent[]) => Promise<void>;
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function eventually(condition: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface Backend {
  db: Knex;
  store: EventStore;
  locks: { connectionString: string; acquireLock?: AcquireLock };
  /** Locks live in database sessions, which a test can end as a dying process would. */
  sessionLocks: boolean;
  close(): Promise<void>;
}

/** The server mode's database, and the embedded mode's (PGlite with its event store and in-process locks). */
const BACKENDS: Array<{ label: string; open(): Promise<Backend> }> = [
  {
    label: 'PostgreSQL',
    async open() {
      const database = await createTestDatabase('projection_runner');
      const db = createKnex(database.url);
      const store = new InMemoryEventStore();
      return {
        db,
        store,
        locks: { connectionString: database.url },
        sessionLocks: true,
        close: async () => {
          await store.close();
          await db.destroy();
          await database.drop();
        },
      };
    },
  },
  {
    label: 'PGlite',
    async open() {
      const embedded = await openEmbeddedDatabase(null);
      const store = new PgliteEventStore(embedded.db, { pollIntervalMs: 50 });
      await store.migrate();
      return {
        db: embedded.db,
        store,
        locks: { connectionString: '', acquireLock: inProcessLocks() },
        sessionLocks: false,
        close: async () => {
          await store.close();
          await embedded.close();
        },
      };
    },
  },
];

for (const { label, open } of BACKENDS)
  describe(`ProjectionRunner on ${label}`, function () {
    this.timeout(60_000);
    let backend: Backend;
    let db: Knex;
    let store: EventStore;
    const expected = new Map<string, number>();
    const runners: ProjectionRunner[] = [];
    let counter = 0;

    before(async () => {
      backend = await open();
      ({ db, store } = backend);
    });

    afterEach(async () => {
      await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    });

    after(async () => backend?.close());

    /** A projection name of its own, with its table created. */
    async function uniqueName(): Promise<string> {
      counter += 1;
      const name = `toy${counter}`;
      await db.raw(`CREATE TABLE ?? (stream_name text PRIMARY KEY, events integer NOT NULL)`, [`${name}_counts`]);
      return name;
    }

    function runner(projections: Projection[], options: Partial<ProjectionRunnerOptions> = {}): ProjectionRunner {
      const created = new ProjectionRunner(projections, {
        db,
        store,
        ...backend.locks,
        logger: silent,
        batchSize: 7,
        lockRetryMs: 100,
        retry: { initialDelayMs: 20, maxDelayMs: 100 },
        ...options,
      });
      runners.push(created);
      return created;
    }

    /** Appends to a few counted streams and one stream the projection ignores; returns the last position. */
    async function appendEvents(count: number): Promise<Checkpoint> {
      let position: Checkpoint = '';
      for (let n = 0; n < count; n++) {
        const stream = `counted-${n % 3}`;
        ({ position } = await store.appendToStream(stream, [{ id: randomUUID(), type: 'Counted', data: { n } }], {
          expectedRevision: 'any',
        }));
        expected.set(stream, (expected.get(stream) ?? 0) + 1);
        if (n % 5 === 0)
          await store.appendToStream('ignored-1', [{ id: randomUUID(), type: 'Ignored', data: {} }], {
            expectedRevision: 'any',
          });
      }
      return position;
    }

    async function counts(projection: CountingProjection): Promise<Map<string, number>> {
      const rows = await db(projection.table).select<Array<{ stream_name: string; events: number }>>(
        'stream_name',
        'events',
      );
      return new Map(rows.map((row) => [row.stream_name, row.events]));
    }

    async function checkpointOf(name: string): Promise<string | null> {
      const row = await db(CHECKPOINT_TABLE)
        .where({ name })
        .first<{ checkpoint: string | null } | undefined>('checkpoint');
      return row?.checkpoint ?? null;
    }

    it('catches up with stored events, then follows new ones live', async () => {
      const projection = countingProjection(await uniqueName());
      await appendEvents(20);
      const live = runner([projection]);
      await live.start();
      await live.waitUntilCaughtUp();
      assert.deepEqual(await counts(projection), expected);

      const position = await appendEvents(11);
      await live.waitUntilCaughtUp(position);
      assert.deepEqual(await counts(projection), expected);
      assert.deepEqual(live.activeProjections(), [projection.name]);
    });

    it('resumes from its checkpoint after a restart without applying anything twice', async () => {
      const projection = countingProjection(await uniqueName());
      const first = runner([projection]);
      await first.start();
      await first.waitUntilCaughtUp(await appendEvents(9));
      await first.stop();
      const checkpoint = await checkpointOf(projection.name);
      assert.notEqual(checkpoint, null);

      await appendEvents(10);
      const second = runner([projection]);
      await second.start();
      await second.waitUntilCaughtUp();
      assert.deepEqual(await counts(projection), expected);
    });

    it('retries a failing batch, whose partial writes roll back, until it succeeds', async () => {
      let failuresLeft = 3;
      const projection = countingProjection(await uniqueName(), {
        async afterWrites() {
          if (failuresLeft-- > 0) throw new Error('handler failed after writing');
        },
      });
      const live = runner([projection]);
      await live.start();
      await live.waitUntilCaughtUp(await appendEvents(15));
      assert.ok(failuresLeft < 0);
      assert.deepEqual(await counts(projection), expected);
    });

    it('says a projection is failing while its batch keeps failing, and no longer once it commits', async () => {
      let broken = true;
      const projection = countingProjection(await uniqueName(), {
        async beforeWrites() {
          if (broken) throw new Error('the read model cannot be written');
        },
      });
      const live = runner([projection]);
      await live.start();
      const position = await appendEvents(3);
      await eventually(() => live.failingProjections().includes(projection.name));
      broken = false;
      await live.waitUntilCaughtUp(position);
      assert.deepEqual(live.failingProjections(), []);
    });

    it('waits for a position whose event the projection filters out', async () => {
      const projection = countingProjection(await uniqueName());
      const live = runner([projection]);
      await live.start();
      await appendEvents(4);
      const { position } = await store.appendToStream('ignored-2', [{ id: randomUUID(), type: 'Ignored', data: {} }], {
        expectedRevision: 'any',
      });
      await live.waitUntilCaughtUp(position);
      assert.deepEqual(await counts(projection), expected);
    });

    it('times out waiting when no instance runs the projection', async () => {
      const projection = countingProjection(await uniqueName());
      const idle = runner([projection]);
      const position = await appendEvents(1);
      await assert.rejects(idle.waitUntilCaughtUp(position, { timeoutMs: 200 }), CatchUpTimeoutError);
    });

    it('rebuilds into new tables while the live ones keep serving and their runner keeps running, then swaps them in', async () => {
      const name = await uniqueName();
      let rebuilding = false;
      const servedDuringRebuild: Array<Map<string, number>> = [];
      const projection = countingProjection(name, {
        async beforeWrites() {
          // The replay's batches: what readers of the live table see meanwhile.
          if (rebuilding && backend.sessionLocks) servedDuringRebuild.push(await counts(projection));
        },
      });
      const live = runner([projection]);
      await live.start();
      await live.waitUntilCaughtUp(await appendEvents(25));
      const before = await counts(projection);
      rebuilding = true;
      await rebuildProjections([projection], { db, store, ...backend.locks, logger: silent, batchSize: 4 });
      rebuilding = false;
      // PGlite has one session, which a batch's transaction holds: its readers wait instead of reading beside the replay.
      if (backend.sessionLocks) assert.ok(servedDuringRebuild.length > 3);
      for (const served of servedDuringRebuild)
        assert.deepEqual(served, before, 'the live table stayed whole during the replay');
      assert.deepEqual(await counts(projection), expected, 'the rebuilt table equals the live one');
      const indexes = await db.raw<{ rows: Array<{ indexname: string }> }>(
        'SELECT indexname FROM pg_indexes WHERE tablename = ?',
        [projection.table],
      );
      assert.deepEqual(
        indexes.rows.map((row) => row.indexname),
        [`${projection.table}_pkey`],
      );

      // The live runner carries on with the swapped-in table from the rebuilt checkpoint, applying nothing twice.
      await live.waitUntilCaughtUp(await appendEvents(6));
      assert.deepEqual(await counts(projection), expected);
      assert.deepEqual(live.activeProjections(), [name]);
    });

    it('lets one rebuild run at a time', async function () {
      // On PGlite's one connection a second rebuild cannot even reach the lock while the first's batch holds the connection.
      if (!backend.sessionLocks) this.skip();
      const projection = countingProjection(await uniqueName());
      await appendEvents(3);
      const gate = deferred();
      const applying = deferred();
      const slow = {
        ...projection,
        apply: async (trx: Knex.Transaction, events: RecordedEvent[]) => {
          applying.resolve();
          await gate.promise;
          await projection.apply(trx, events);
        },
      };
      const first = rebuildProjections([slow], { db, store, ...backend.locks, logger: silent });
      // Applying its first batch, the first rebuild holds the lock.
      await applying.promise;
      await assert.rejects(
        rebuildProjections([projection], { db, store, ...backend.locks, logger: silent, lockTimeoutMs: 300 }),
        ProjectionBusyError,
      );
      gate.resolve();
      await first;
    });

    it('keeps a second runner waiting, which takes over when the first stops', async () => {
      const projection = countingProjection(await uniqueName());
      const first = runner([projection]);
      const second = runner([projection]);
      await first.start();
      await first.waitUntilCaughtUp(await appendEvents(5));
      await second.start();
      await second.waitUntilCaughtUp(await appendEvents(5));
      assert.deepEqual(first.activeProjections(), [projection.name]);
      assert.deepEqual(second.activeProjections(), []);

      await first.stop();
      await eventually(() => second.activeProjections().length === 1);
      await second.waitUntilCaughtUp(await appendEvents(6));
      assert.deepEqual(await counts(projection), expected);
    });

    it('lets a second runner take over when the first dies mid-batch, and the first cannot commit that batch', async function () {
      // In-process locks die only with the process, which this process cannot show: the embedded end-to-end test kills one.
      if (!backend.sessionLocks) this.skip();
      const gate = deferred();
      const firstInBatch = deferred();
      let gated = false;
      const name = await uniqueName();
      const stuck = countingProjection(name, {
        async beforeWrites() {
          if (gated) return;
          gated = true;
          firstInBatch.resolve();
          await gate.promise;
        },
      });
      const first = runner([stuck]);
      await first.start();
      const position = await appendEvents(5);
      await firstInBatch.promise;

      const second = runner([countingProjection(name)]);
      await second.start();
      assert.deepEqual(second.activeProjections(), []);
      // The first runner's process "dies": Postgres drops its lock with its session.
      await db.raw(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?`, [
        `lock projection:${name}`,
      ]);
      await eventually(() => second.activeProjections().length === 1);
      await second.waitUntilCaughtUp(position);
      gate.resolve();
      await eventually(() => first.activeProjections().length === 0);
      await second.waitUntilCaughtUp(await appendEvents(4));
      assert.deepEqual(await counts(stuck), expected);
    });
  });
