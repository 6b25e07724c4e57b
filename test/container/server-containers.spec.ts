import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { FIXTURE_VIDEOS, type FixturePlatform, startFixturePlatform } from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { portBelowEphemeralRange } from '../support/port-below-ephemeral-range.js';
import { type TestDatabase, createTestDatabase } from '../support/postgres.js';
import { waitFor } from '../support/wait-for.js';

/** Polls of the API keep well inside the plan's 10 requests a second per key. */
const POLL_MS = 250;
import { CONTAINER_IMAGE, envArgs, exitCodeOf, logsOf, removeAll, timedStop } from './podman.js';
import { adminInContainer, fixturePlatformOptions, runService } from './service-container.js';

const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * The image in server mode, as compose.yaml runs it: api, projector and worker containers of the one image
 * against this machine's PostgreSQL (a fresh database) and NATS (a stream of its own), sharing one volume
 * for the files. A worker stopped mid-download hands its job back to the next worker.
 */
describe('the container image, server mode', function () {
  this.timeout(300_000);
  const suffix = randomBytes(4).toString('hex');
  const names = { api: `vds-api-${suffix}`, projector: `vds-projector-${suffix}`, worker: `vds-worker-${suffix}` };
  const nextWorker = `vds-worker-${suffix}-next`;
  const volume = `vds-smoke-files-${suffix}`;
  const stream = `VDS_CONTAINER_${suffix.toUpperCase()}`;
  const port = portBelowEphemeralRange();
  const baseUrl = `http://127.0.0.1:${port}`;
  const call = apiClient(baseUrl);
  let platform: FixturePlatform;
  let database: TestDatabase;
  let options: string[];
  let apiKey: string;

  before(async function () {
    if (CONTAINER_IMAGE === undefined) this.skip();
    platform = await startFixturePlatform();
    database = await createTestDatabase('container');
    options = [
      ...(await fixturePlatformOptions(platform)),
      ...envArgs({
        DATABASE_URL: database.url,
        DATABASE_POOL_SIZE: '3',
        NATS_URL,
        NATS_STREAM: stream,
        MASTER_KEY: randomBytes(32).toString('hex'),
        PORT: String(port),
        PUBLIC_BASE_URL: baseUrl,
        // One attempt: a job the stopped worker had spent would fail rather than run again.
        DOWNLOAD_MAX_ATTEMPTS: '1',
        WORK_DRAIN_TIMEOUT_MS: '1000',
      }),
      '-v',
      `${volume}:/data`,
    ];
  });
  after(async () => {
    await removeAll([...Object.values(names), nextWorker], [volume]);
    await deleteStream();
    await database?.drop();
    await platform?.stop();
  });

  const job = async (jobId: string) => (await call('GET', `/api/v2/download/${jobId}`, { key: apiKey })).body;
  const submit = async (id: string) => {
    const submitted = await call('POST', '/api/v2/download', { key: apiKey, json: { url: platform.watchUrl(id) } });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    return submitted.body.jobId as string;
  };
  const ended = (jobId: string) =>
    waitFor(
      `job ${jobId} ends`,
      async () => {
        const body = await job(jobId);
        return body.status === 'COMPLETED' || body.status === 'FAILED' ? body : null;
      },
      60_000,
      POLL_MS,
    );

  it('runs api, projector and worker containers, and a job completes', async () => {
    const image = CONTAINER_IMAGE as string;
    await runService(names.projector, options, image, ['--role', 'projector']);
    await runService(names.worker, options, image, ['--role', 'worker']);
    const api = await runService(names.api, options, image, ['--role', 'api'], `${baseUrl}/readyz`);
    console.log(`      api ready ${(api.readyMs / 1000).toFixed(1)} s after podman run (server mode)`);
    assert.equal((await (await fetch(`${baseUrl}/readyz`)).json()).mode, 'server');
    const account = await adminInContainer(names.api, [
      'create-account',
      '--name',
      'Ada Lovelace',
      '--email',
      'ada@example.com',
      '--plan',
      'starter',
    ]);
    apiKey = account.apiKey;
    const done = await ended(await submit(FIXTURE_VIDEOS.clip.id));
    assert.equal(done.status, 'COMPLETED', `${JSON.stringify(done)}\n${await logsOf(names.worker)}`);
    const file = await fetch(done.downloadUrl);
    assert.equal(file.status, 200);
    assert.equal((await file.arrayBuffer()).byteLength, done.fileSize);
  });

  it('a worker container stopped mid-download hands its job back, and the next worker completes it', async () => {
    const jobId = await submit(FIXTURE_VIDEOS.slow.id);
    await waitFor(
      'the slow download is under way',
      async () => (await job(jobId)).status === 'IN_PROGRESS',
      60_000,
      POLL_MS,
    );
    const tookMs = await timedStop(names.worker, 30);
    console.log(`      worker stopped in ${(tookMs / 1000).toFixed(1)} s`);
    assert.equal(await exitCodeOf(names.worker), 0);
    const log = await logsOf(names.worker, 200);
    assert.match(log, /handing its message back/, `the download outlasted the drain: ${log}`);
    await runService(nextWorker, options, CONTAINER_IMAGE as string, ['--role', 'worker']);
    const done = await ended(jobId);
    assert.equal(done.status, 'COMPLETED', `${JSON.stringify(done)}\n${await logsOf(nextWorker)}`);
    assert.deepEqual(await eventTypes(`download-${jobId}`, 'DownloadAttemptFailed'), [], 'no attempt spent');
  });

  async function eventTypes(streamName: string, type: string): Promise<string[]> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        'SELECT event_type FROM es_events WHERE stream_name = $1 AND event_type = $2',
        [streamName, type],
      );
      return rows.map((row) => row.event_type as string);
    } finally {
      await client.end();
    }
  }

  async function deleteStream(): Promise<void> {
    const { connect } = await import('nats');
    const nc = await connect({ servers: NATS_URL });
    try {
      await (await nc.jetstreamManager()).streams.delete(stream).catch(() => false);
    } finally {
      await nc.close();
    }
  }
});
