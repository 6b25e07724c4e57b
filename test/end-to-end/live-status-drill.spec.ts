import assert from 'node:assert/strict';
import pg from 'pg';
import { apiClient } from '../support/api-client.js';
import { ControlledExtractor } from '../support/controlled-extractor.js';
import { EventStreamClient } from '../support/event-stream-client.js';
import { TEST_POSTGRES_URL } from '../support/postgres.js';
import { type TestService, startTestService } from '../support/test-service.js';

/** Ends every connection the service holds to its database, as a failover, a restart or an idle-connection reaper does. */
async function terminateConnections(admin: pg.Client, database: string): Promise<number> {
  const ended = await admin.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  return ended.rowCount ?? 0;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('drill: the service loses its PostgreSQL connections six times', function () {
  this.timeout(180_000);
  let service: TestService;
  let admin: pg.Client;
  const extractor = new ControlledExtractor();
  const streams: EventStreamClient[] = [];

  before(async () => {
    service = await startTestService({ label: 'live_status_drill', overrides: { extractor } });
    admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
  });
  after(async () => {
    for (const stream of streams) stream.close();
    await admin?.end();
    await service?.stop();
  });

  const openStream = async (jobId: string, apiKey: string) => {
    const stream = await EventStreamClient.open(`${service.url}/api/v2/download/${jobId}/events`, {
      Authorization: `Bearer ${apiKey}`,
    });
    streams.push(stream);
    assert.equal(stream.response.status, 200);
    await stream.waitFor('the first body', () => stream.bodies()[0]);
    return stream;
  };
  const submit = async (apiKey: string, videoId: string) => {
    const submitted = await apiClient(service.url)('POST', '/api/v2/download', {
      key: apiKey,
      json: { url: `https://www.youtube.com/watch?v=${videoId}`, format: 'audio' },
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    return submitted.body.jobId as string;
  };
  const completesAndCloses = async (stream: EventStreamClient) => {
    await stream.waitFor(
      'the COMPLETED body',
      () => stream.bodies().find((body) => body.status === 'COMPLETED'),
      60_000,
    );
    await stream.waitFor('the server to close the stream', () => (stream.ended ? true : undefined), 30_000);
  };

  it("closes a new job's event stream, and one opened before, with their COMPLETED bodies", async () => {
    const { apiKey } = await service.createAccount();
    const call = apiClient(service.url);
    const database = service.database?.name ?? '';
    const before = await openStream(await submit(apiKey, 'beforeDrill'), apiKey);
    await before.waitFor('the running body', () => before.bodies().find((body) => body.status === 'IN_PROGRESS'));
    for (let round = 1; round <= 6; round++) {
      await until(`connections to end (round ${round})`, async () => (await terminateConnections(admin, database)) > 0);
      // The service connects again (its listeners, locks and pools) before the next round ends them.
      await until(`the service to connect again (round ${round})`, async () => {
        const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
          database,
        ]);
        return rows[0].n > 0;
      });
    }
    await until('the service to be ready again', async () => (await call('GET', '/readyz')).status === 200, 60_000);
    assert.equal((await call('GET', '/readyz')).body.checks.liveStatus, 'ok');

    const after = await openStream(await submit(apiKey, 'afterDrill'), apiKey);
    extractor.release('afterDrill');
    await completesAndCloses(after);
    extractor.release('beforeDrill');
    await completesAndCloses(before);
  });
});
