import assert from 'node:assert/strict';
import pg from 'pg';
import type { Logger } from '../../../application/ports/logger.js';
import { PostgresExclusiveLock } from '../../../infrastructure/postgres/postgres-exclusive-lock.js';
import { LeaderOnly } from '../../../infrastructure/system/leader-only.js';
import { acquireSessionLock } from '../../../infrastructure/postgres/session-advisory-lock.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { waitFor } from '../../support/wait-for.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };
const KEY = 'test:leader-only';

/** The backend pids of the sessions holding the lock. */
async function lockHolders(database: TestDatabase): Promise<number[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = $1 AND a.datname = current_database()`,
      [`lock ${KEY}`],
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** One process's view: whether its work runs, whether its lock waits on another holder, and the session it last took the lock with. */
class Instance {
  running = false;
  stops = 0;
  waitedForOther = false;
  session: number | null = null;
  readonly leader: LeaderOnly;
  constructor(
    readonly name: string,
    database: TestDatabase,
    onStart: () => void,
  ) {
    const info = (_fields: unknown, message: string) => {
      if (message.startsWith('Lock held by another')) this.waitedForOther = true;
    };
    const logger = { ...silent, info } as Logger;
    const lock = new PostgresExclusiveLock({
      connectionString: database.url,
      key: KEY,
      logger,
      // Taken as in production; the session that holds it right after is this instance's.
      acquireLock: async (options) => {
        const held = await acquireSessionLock(options);
        if (held !== null) [this.session] = await lockHolders(database);
        return held;
      },
    });
    this.leader = new LeaderOnly(
      'test loops',
      lock,
      async () => {
        onStart();
        this.running = true;
        return {
          stop: async () => {
            this.running = false;
            this.stops += 1;
          },
        };
      },
      silent,
    );
  }
}

describe('background work behind a leadership lock', () => {
  let database: TestDatabase;
  let instances: Instance[];
  let mostAtOnce: number;

  beforeEach(async () => {
    database = await createTestDatabase('leader_only');
    mostAtOnce = 0;
    const onStart = () =>
      (mostAtOnce = Math.max(mostAtOnce, instances.filter((instance) => instance.running).length + 1));
    instances = [new Instance('A', database, onStart), new Instance('B', database, onStart)];
  });
  afterEach(async () => {
    await Promise.all(instances.map((instance) => instance.leader.stop()));
    await database.drop();
  });

  it('runs in one of two instances, and in the other once the first stops', async () => {
    for (const instance of instances) instance.leader.start();
    await waitFor('one instance leads', () => instances.some((instance) => instance.running));
    const [first, second] = instances[0].running ? instances : [instances[1], instances[0]];
    await waitFor('the other waits on the lock', () => second.waitedForOther);
    assert.equal(second.running, false);

    await first.leader.stop();
    assert.equal(first.running, false);
    await waitFor('the other takes over', () => second.running);
    assert.equal(mostAtOnce, 1, 'never two at once');
  });

  it('stops the work of a leader whose lock connection dies, and the other instance leads once that one stops', async function () {
    this.timeout(120_000);
    for (const instance of instances) instance.leader.start();
    await waitFor('one instance leads', () => instances.some((instance) => instance.running));
    const [first, second] = instances[0].running ? instances : [instances[1], instances[0]];
    await waitFor(`${second.name} waits on the lock`, () => second.waitedForOther);
    const firstSession = first.session;
    assert.deepEqual(await lockHolders(database), [firstSession], `${first.name}'s session holds the lock`);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [firstSession]);
    } finally {
      await admin.end();
    }
    await waitFor(`${first.name} stops its work`, () => first.stops === 1);
    // No "never two at once" here: until the old leader notices, the database has already let the other take the lock.
    // Either may take the lock again now; once the first stops for good, the lead must reach the other, named one.
    await first.leader.stop();
    assert.equal(first.running, false, `${first.name} runs nothing once stopped`);
    await waitFor(`${second.name} leads`, () => second.running);
    assert.notEqual(second.session, firstSession);
    assert.deepEqual(await lockHolders(database), [second.session], `${second.name}'s session holds the lock`);
    assert.equal(first.running, false, `${first.name} does not lead beside it`);
  });
});
