import assert from 'node:assert/strict';
import type { Logger } from '../../../application/ports/logger.js';
import { openStorage } from '../../../infrastructure/composition/open-adapters.js';
import { loadConfig } from '../../../infrastructure/config/config.js';
import type { Storage } from '../../../infrastructure/database/open-storage.js';
import { READ_MODEL_SCHEMA } from '../../../infrastructure/features/features.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { type TcpProxy, startTcpProxy } from '../../support/tcp-proxy.js';
import { waitFor } from '../../support/wait-for.js';

function recordingLogger(warnings: string[]): Logger {
  const logger: Logger = {
    info() {},
    warn: (_fields, message) => void warnings.push(String(message)),
    error() {},
    child: () => logger,
  };
  return logger;
}

describe('opening the server-mode storage while PostgreSQL is out of reach', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let proxy: TcpProxy;

  before(async () => {
    database = await createTestDatabase('open_adapters');
  });

  beforeEach(async () => {
    const target = new URL(database.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port));
  });

  afterEach(() => proxy.close());
  after(() => database.drop());

  function settingsThroughProxy(user = 'postgres') {
    const url = new URL(database.url);
    url.port = String(proxy.port);
    url.username = user;
    return loadConfig({ DATABASE_URL: url.toString() }).storage;
  }

  it('waits, saying so, and opens once the server answers', async () => {
    proxy.cut();
    const warnings: string[] = [];
    let storage: Storage | 'pending' | Error = 'pending';
    const opening = openStorage(settingsThroughProxy(), 'server', READ_MODEL_SCHEMA, recordingLogger(warnings));
    opening.then(
      (opened) => (storage = opened),
      (error: Error) => (storage = error),
    );
    await waitFor('two tries refused', () => warnings.length >= 2 || storage !== 'pending');
    assert.equal(storage, 'pending', 'still waiting, not failed');
    assert.match(warnings[0], /opening PostgreSQL: the server is out of reach/);
    proxy.restore();
    const opened = await opening;
    try {
      const rows = await opened.database.raw('SELECT count(*) AS n FROM download_jobs');
      assert.equal(Number(rows.rows[0].n), 0, 'the read models were created');
    } finally {
      await opened.close();
    }
  });

  it('ends at once for what waiting cannot mend: a role the server does not know', async () => {
    const warnings: string[] = [];
    await assert.rejects(
      openStorage(settingsThroughProxy('no_such_role'), 'server', READ_MODEL_SCHEMA, recordingLogger(warnings)),
      /no_such_role/,
    );
    assert.deepEqual(warnings, []);
  });
});
