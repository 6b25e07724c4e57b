import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { EventStore, RecordedEvent } from '../../../application/ports/event-store.js';
import type { Logger } from '../../../application/ports/logger.js';
import { TOKENS } from '../../../infrastructure/composition/tokens.js';
import { TargetNotEmptyError, moveToServer } from '../../../infrastructure/cli/move-embedded-to-server.js';
import { PostgresEventStore } from '../../../infrastructure/event-store/postgres/postgres-event-store.js';
import { SealingEventStore } from '../../../infrastructure/event-store/sealing/sealing-event-store.js';
import { createKnex } from '../../../infrastructure/postgres/create-knex.js';
import { AccountDataKeys } from '../../../infrastructure/security/personal-data/account-data-keys.js';
import { PostgresDataKeyStore } from '../../../infrastructure/security/personal-data/postgres-data-key-store.js';
import { serviceMasterKeys } from '../../../infrastructure/security/personal-data/service-master-keys.js';
import { apiClient } from '../../support/api-client.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { type TestService, startTestService } from '../../support/test-service.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

async function everything(store: EventStore): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after: events.at(-1)?.position ?? null, maxCount: 200 });
    if (page.length === 0) return events;
    events.push(...page);
  }
}

/** What must survive the move: everything but the positions, which are the target store's own. */
const portable = (event: RecordedEvent) => ({
  id: event.id,
  type: event.type,
  streamName: event.streamName,
  revision: event.revision,
  data: event.data,
  metadata: event.metadata,
  createdAt: event.createdAt.toISOString(),
});

describe('moving an embedded installation to a PostgreSQL server', function () {
  this.timeout(180_000);
  let embedded: TestService | null = null;
  let server: TestService | null = null;
  let target: TestDatabase;
  let embeddedDataRoot: string | null = null;

  after(async () => {
    await server?.stop();
    await target?.drop();
    if (embeddedDataRoot !== null) await rm(embeddedDataRoot, { recursive: true, force: true });
  });

  it('copies every event in order, rebuilds the read models, and the accounts work against the servers', async () => {
    embedded = await startTestService({ embedded: true, roles: ['api', 'projector'] });
    const { accountId, apiKey } = await embedded.createAccount({ planId: 'growth', name: 'Mover' });
    await embedded.createAccount({ planId: 'free', name: 'Second' });
    const before = (await everything(embedded.service.container.resolve<EventStore>(TOKENS.eventStore))).map(portable);
    const me = (await apiClient(embedded.url)('GET', '/api/v2/me', { key: apiKey })).body;
    const { embeddedDataDir } = embedded.config.storage;
    const { masterKeyFile } = embedded.config.security;
    const masterKeys = serviceMasterKeys(embedded.config);
    embeddedDataRoot = path.dirname(embeddedDataDir);
    // Stopped without deleting its directory: stop() of the test service would remove it.
    await embedded.service.stop();

    target = await createTestDatabase('move_target');
    const report = await moveToServer({
      directory: embeddedDataDir,
      databaseUrl: target.url,
      masterKeys,
      logger: silent,
    });
    assert.equal(report.events, before.length);

    const targetStore = new PostgresEventStore({ connectionString: target.url });
    const targetDb = createKnex(target.url);
    try {
      // The personal fields moved sealed, and open with the data keys that moved along.
      const opened = new SealingEventStore(
        targetStore,
        new AccountDataKeys(new PostgresDataKeyStore(targetDb), masterKeys),
      );
      assert.deepEqual((await everything(opened)).map(portable), before);
      const raw = (await everything(targetStore)).find((event) => event.type === 'AccountOpened');
      assert.match(String(raw?.data.email), /^sealed:v1:/);
      const [revision] = (await everything(targetStore))
        .filter((event) => event.streamName === `account-${accountId}`)
        .slice(-1);
      await assert.rejects(
        targetStore.appendToStream(`account-${accountId}`, [{ id: crypto.randomUUID(), type: 'Probe', data: {} }], {
          expectedRevision: revision.revision - 1,
        }),
        /revision/i,
      );
    } finally {
      await targetStore.close();
      await targetDb.destroy();
    }

    server = await startTestService({
      roles: ['api', 'projector'],
      env: { DATABASE_URL: target.url, MASTER_KEY_FILE: masterKeyFile },
    });
    const moved = await apiClient(server.url)('GET', '/api/v2/me', { key: apiKey });
    assert.equal(moved.status, 200);
    assert.deepEqual(moved.body, me);

    await assert.rejects(
      moveToServer({ directory: embeddedDataDir, databaseUrl: target.url, masterKeys, logger: silent }),
      TargetNotEmptyError,
    );
  });
});
