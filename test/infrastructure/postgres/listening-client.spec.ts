import assert from 'node:assert/strict';
import pg from 'pg';
import { NotificationListener } from '../../../infrastructure/event-store/postgres/notification-listener.js';
import { ChannelListener } from '../../../infrastructure/postgres/channel-listener.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { keepAliveArmed, listeningPorts } from '../../support/tcp-keep-alive.js';

async function until<T>(what: string, find: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('LISTEN connections use TCP keep-alives, so one that died silently ends and is replaced', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let admin: pg.Client;

  before(async () => {
    database = await createTestDatabase('listening_client');
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await database?.drop();
  });

  const keepsAlive = async (channel: string) => {
    const port = await until(
      `the LISTEN connection on ${channel}`,
      async () => (await listeningPorts(admin, database.name, channel))[0],
    );
    await until(`keep-alives on the LISTEN connection on ${channel}`, async () => keepAliveArmed(port) || undefined);
  };

  it("the caches' channel listener", async () => {
    const listener = new ChannelListener(database.url, 'cache_changes', {
      onNotification: () => undefined,
      onListening: () => undefined,
      onLost: () => undefined,
    });
    await listener.start();
    try {
      await keepsAlive('cache_changes');
    } finally {
      await listener.close();
    }
  });

  it("the event store's notification listener", async () => {
    const listener = new NotificationListener(database.url, 'store_appends');
    const stop = new AbortController();
    try {
      assert.equal(await listener.wait(10, stop.signal), true, 'connected to listen');
      await keepsAlive('store_appends');
    } finally {
      stop.abort();
      await listener.close();
    }
  });
});
