import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { EventStore, RecordedEvent } from '../../../application/ports/event-store.js';
import type { Logger } from '../../../application/ports/logger.js';
import { TOKENS } from '../../../infrastructure/composition/tokens.js';
import { TargetNotEmptyError, moveToServer } from '../../../infrastructure/cli/move-embedded-to-server.js';
import { PostgresEventStore } from '../../../infrastructure/event-store/postgres/postgres-event-store.js';
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
    embeddedDataRoot = path.dirname(embeddedDataDir);
    // Stopped without deleting its directory: stop() of the test service would remove it.
    await embedded.service.stop();

    target = await createTestDatabase('move_target');
    const report = await moveToServer({ directory: embeddedDataDir, databaseUrl: target.url, logger: silent });
    assert.equal(report.events, before.length);

    const targetStore = new PostgresEventStore({ connectionString: target.url });
    try {
      assert.deepEqual((await everything(targetStore)).map(portable), before);
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
    }

    server = await startTestService({
      roles: ['api', 'projector'],
      env: { DATABASE_URL: target.url, MASTER_KEY_FILE: masterKeyFile },
    });
    const moved = await apiClient(server.url)('GET', '/api/v2/me', { key: apiKey });
    assert.equal(moved.status, 200);
    assert.deepEqual(moved.body, me);

    await assert.rejects(
      moveToServer({ directory: embeddedDataDir, databaseUrl: target.url, logger: silent }),
      TargetNotEmptyError,
    );
  });
});
