import assert from 'node:assert/strict';
import { readFile, readdir, readlink } from 'node:fs/promises';
import pg from 'pg';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../../fixtures/platform/fixture-platform.js';
import { apiClient } from '../../support/api-client.js';
import { type TestService, startTestService } from '../../support/test-service.js';
import { type WorkerProcess, startWorkerProcess } from '../../support/worker-process.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A worker process stopped with SIGTERM while a download runs that outlasts its drain: the download must not be killed
 * under the consumer (which would spend the job's only attempt), but handed back and finished by the next worker.
 */
describe('the worker role, stopped with a download under way', function () {
  this.timeout(180_000);
  let platform: FixturePlatform;
  let service: TestService;
  const workers: WorkerProcess[] = [];

  before(async () => {
    platform = await startFixturePlatform();
    service = await startTestService({
      roles: ['api', 'projector'],
      label: 'worker_stop',
      env: { ...serviceEnvFor(platform), DOWNLOAD_MAX_ATTEMPTS: '1' },
    });
  });
  after(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL');
    await Promise.all(workers.map((worker) => worker.exited));
    await service?.stop();
    await platform?.stop();
  });

  function startWorker(): WorkerProcess {
    const worker = startWorkerProcess(service, {
      ...serviceEnvFor(platform),
      DOWNLOAD_MAX_ATTEMPTS: '1',
      WORK_DRAIN_TIMEOUT_MS: '1000',
      // Its fork server says when it is ready.
      LOG_LEVEL: 'info',
    });
    workers.push(worker);
    return worker;
  }

  it('hands the download back, and the next worker completes it: no attempt spent, charged once', async () => {
    const { apiKey } = await service.createAccount();
    const call = apiClient(service.url);
    const poll = async (jobId: string) => (await call('GET', `/api/v2/download/${jobId}`, { key: apiKey })).body;
    const until = async (jobId: string, done: (status: string) => boolean) => {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const job = await poll(jobId);
        if (done(job.status)) return job;
        assert.ok(Date.now() < deadline, `job still ${job.status}`);
        await sleep(100);
      }
    };
    const submit = async (id: string) => {
      const submitted = await call('POST', '/api/v2/download', { key: apiKey, json: { url: platform.watchUrl(id) } });
      assert.equal(submitted.status, 200);
      return submitted.body.jobId as string;
    };
    const first = startWorker();
    // Downloads run on the worker's fork server once it is ready, as in production.
    const readyBy = Date.now() + 120_000;
    while (!first.log().includes('download fork server ready')) {
      assert.ok(Date.now() < readyBy, `the fork server became ready: ${first.log()}`);
      await sleep(50);
    }
    const jobId = await submit(FIXTURE_VIDEOS.slow.id);
    const startedBy = Date.now() + 60_000;
    let runner: string | null = null;
    while (runner === null) {
      assert.ok(Date.now() < startedBy, 'the slow download started');
      runner = await parentOfDownload(service.config.storage.workDir);
      await sleep(50);
    }
    assert.match(runner, /yt_dlp_fork_server\.py/, 'the download runs on the fork server');

    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0, `the worker stops cleanly: ${first.log()}`);
    assert.match(first.log(), /handing its message back/, `the download outlasted the drain: ${first.log()}`);
    startWorker();

    const done = await until(jobId, (status) => status === 'COMPLETED' || status === 'FAILED');
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.deepEqual(await eventsOf(`download-${jobId}`, 'DownloadAttemptFailed'), [], 'no attempt spent');
    const used = async () => (await call('GET', '/api/v2/me', { key: apiKey })).body.balances.download_count.used;
    const deadline = Date.now() + 20_000;
    while ((await used()) !== 1) {
      assert.ok(Date.now() < deadline, 'the download is charged');
      await sleep(100);
    }
    const charges = (await eventsOf('account-%', 'BandwidthCharged')).filter((data) => data.includes(jobId));
    assert.equal(charges.length, 1, 'charged once');
  });

  /** The command line of the parent of a process working in `workDir` (a download under way), or null while none does. */
  async function parentOfDownload(workDir: string): Promise<string | null> {
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => '');
      if (!cwd.startsWith(workDir)) continue;
      const parent = /^PPid:\s+(\d+)$/m.exec(await readFile(`/proc/${entry}/status`, 'utf8').catch(() => ''))?.[1];
      const commandLine = await readFile(`/proc/${parent}/cmdline`, 'utf8').catch(() => '');
      if (commandLine !== '') return commandLine.split('\0').join(' ');
    }
    return null;
  }

  /** The data of the events of `type` in the streams named like `stream` (a LIKE pattern). */
  async function eventsOf(stream: string, type: string): Promise<string[]> {
    const client = new pg.Client({ connectionString: service.config.storage.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        'SELECT data::text AS data FROM es_events WHERE stream_name LIKE $1 AND event_type = $2',
        [stream, type],
      );
      return rows.map((row) => row.data as string);
    } finally {
      await client.end();
    }
  }
});
