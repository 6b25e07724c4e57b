import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { probeMediaFile } from '../../infrastructure/media/ffprobe.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const runFile = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Once per mode: the same journey on PostgreSQL and JetStream, and on PGlite and the in-process queue.
for (const mode of ['server', 'embedded'] as const)
  describe(`end to end (${mode} mode): a download job through the API, the workers, yt-dlp and ffmpeg`, function () {
    this.timeout(120_000);
    let platform: FixturePlatform;
    let service: TestService;
    let call: ReturnType<typeof apiClient>;

    before(async () => {
      platform = await startFixturePlatform();
      service = await startTestService({
        label: 'e2e',
        embedded: mode === 'embedded',
        env: {
          ...serviceEnvFor(platform),
          DOWNLOAD_MAX_ATTEMPTS: '2',
          DOWNLOAD_RETRY_BASE_MS: '100',
        },
      });
      call = apiClient(service.url);
    });
    after(async () => {
      await service?.stop();
      await platform?.stop();
    });

    async function pollUntilFinished(key: string, jobId: string) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const response = await call('GET', `/api/v2/download/${jobId}`, { key });
        assert.equal(response.status, 200);
        if (response.body.status === 'COMPLETED' || response.body.status === 'FAILED') return response.body;
        assert.ok(Date.now() < deadline, `job ${jobId} still ${response.body.status}`);
        await sleep(150);
      }
    }

    it('submits, polls to COMPLETED, serves the file, and charges the account exactly once', async () => {
      const { accountId, apiKey } = await service.createAccount({ planId: 'starter' });
      const url = platform.watchUrl(FIXTURE_VIDEOS.clip.id);
      const submitted = await call('POST', '/api/v2/download', { key: apiKey, json: { url } });
      assert.equal(submitted.status, 200);
      assert.equal(submitted.body.status, 'IN_QUEUE');
      assert.equal(submitted.body.title, FIXTURE_VIDEOS.clip.title);
      assert.equal(submitted.body.duration, FIXTURE_VIDEOS.clip.duration);
      const { jobId } = submitted.body;

      // Read-your-writes: the poll right after the submit finds the job whatever the projector's lag.
      const first = await call('GET', `/api/v2/download/${jobId}`, { key: apiKey });
      assert.equal(first.status, 200);
      assert.ok(['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED'].includes(first.body.status));
      assert.equal(first.body.format, 'audio');
      assert.equal(first.body.language, null);

      const done = await pollUntilFinished(apiKey, jobId);
      assert.equal(done.status, 'COMPLETED');
      assert.equal(done.url, url);
      assert.equal(done.actualFormat, 'audio');
      assert.ok(done.fileSize > 0);
      assert.ok(Date.parse(done.startedAt) >= Date.parse(done.createdAt));
      assert.ok(Date.parse(done.completedAt) >= Date.parse(done.startedAt));

      const file = await fetch(done.downloadUrl);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'audio/mp4');
      assert.match(
        file.headers.get('content-disposition') ?? '',
        /Fixture Clip_? Test Pattern\.m4a|Fixture Clip Test Pattern\.m4a/,
      );
      const bytes = Buffer.from(await file.arrayBuffer());
      assert.equal(bytes.length, done.fileSize);
      const saved = path.join(await mkdtemp(path.join(tmpdir(), 'e2e-')), 'out.m4a');
      await writeFile(saved, bytes);
      const probe = await probeMediaFile(service.config.extractor.ffprobePath, saved);
      assert.deepEqual(
        probe.streams.map((stream) => stream.codec),
        ['aac'],
      );

      const partial = await fetch(done.downloadUrl, { headers: { Range: 'bytes=10-19' } });
      assert.equal(partial.status, 206);
      assert.equal(partial.headers.get('content-range'), `bytes 10-19/${done.fileSize}`);
      assert.deepEqual(Buffer.from(await partial.arrayBuffer()), bytes.subarray(10, 20));
      const tampered = done.downloadUrl.replace(/signature=[0-9a-f]{4}/, 'signature=0000');
      assert.equal((await fetch(tampered)).status, 403);

      // Billing happens after completion; wait until the charge is visible, then make sure it stays single.
      let me: any;
      for (let i = 0; i < 100; i += 1) {
        await service.settle();
        me = (await call('GET', '/api/v2/me', { key: apiKey })).body;
        if (me.balances.download_count.used === 1) break;
        await sleep(100);
      }
      assert.equal(me.balances.download_count.used, 1);
      assert.equal(me.balances.bandwidth_mb.used, 20, 'a small file is charged the 20 MB minimum');
      await sleep(500);
      await service.settle();
      assert.deepEqual((await call('GET', '/api/v2/me', { key: apiKey })).body.balances, me.balances);

      // The auditors' replay, as a separate process, agrees with /me.
      // Embedded, the CLI finds the running service through the data directory and asks it.
      const where =
        mode === 'server'
          ? { DATABASE_URL: String(service.config.storage.databaseUrl) }
          : { EMBEDDED_DATA_DIR: service.config.storage.embeddedDataDir };
      const env = {
        ...process.env,
        ...where,
        MASTER_KEY_FILE: service.config.security.masterKeyFile,
        LOG_LEVEL: 'silent',
      };
      const { stdout } = await runFile(
        process.execPath,
        [path.resolve('build/infrastructure/cli/audit.js'), accountId, '--json'],
        { env },
      );
      const report = JSON.parse(stdout);
      assert.deepEqual(report.differences, []);
      assert.deepEqual(
        report.entries
          .filter((entry: { kind: string }) => entry.kind === 'charge')
          .map((entry: { jobId: string; bandwidthMb: number }) => [entry.jobId, entry.bandwidthMb]),
        [[jobId, 20]],
      );
    });

    it('hides a job from other accounts and answers 404 for unknown jobs', async () => {
      const owner = await service.createAccount();
      const other = await service.createAccount();
      const { body } = await call('POST', '/api/v2/download', {
        key: owner.apiKey,
        json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio-mp3' },
      });
      assert.equal((await call('GET', `/api/v2/download/${body.jobId}`, { key: other.apiKey })).status, 404);
      assert.equal(
        (await call('GET', '/api/v2/download/00000000-0000-0000-0000-000000000000', { key: owner.apiKey })).status,
        404,
      );
      assert.equal(
        (await call('GET', '/api/v2/download/not%20a%20job!', { key: owner.apiKey })).status,
        404,
        'a malformed id names no job',
      );
      const done = await pollUntilFinished(owner.apiKey, body.jobId);
      assert.equal(done.actualFormat, 'audio-mp3');
    });

    it('refuses videos that cannot be downloaded with 400, charging nothing and leaving no job', async () => {
      const { accountId, apiKey } = await service.createAccount();
      const cases: Array<[string, Record<string, unknown>, RegExp]> = [
        ['private', { url: platform.watchUrl('private-x1') }, /^The video is private$/],
        ['live', { url: platform.watchUrl('live-x1') }, /live stream is still in progress/],
        ['opt-out', { url: platform.watchUrl(FIXTURE_VIDEOS.optout.id) }, /opted out/],
        [
          'start beyond the end',
          { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), startTime: 6 },
          /startTime must be less than/,
        ],
        [
          'end beyond the end',
          { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), endTime: 7 },
          /endTime must not exceed/,
        ],
        [
          'end before start',
          { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), startTime: 3, endTime: 2 },
          /endTime must be greater than startTime/,
        ],
        ['another host', { url: 'https://evil.example/watch?v=abc' }, /^url must be a video URL/],
        [
          'private webhook',
          { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), webhookUrl: 'http://10.0.0.1/hook' },
          /webhookUrl/,
        ],
      ];
      for (const [label, json, message] of cases) {
        const response = await call('POST', '/api/v2/download', { key: apiKey, json });
        assert.equal(response.status, 400, label);
        assert.match(response.body.error, message, label);
      }
      const me = (await call('GET', '/api/v2/me', { key: apiKey })).body;
      assert.equal(me.balances.download_count.used, 0);
      await service.settle();
      const db = service.service.container.resolve<Knex>(TOKENS.database);
      assert.deepEqual(await db('download_jobs').where('account_id', accountId), []);
      const account = await db('accounts').where('account_id', accountId).first();
      assert.deepEqual(account.state.pendingJobs, []);
    });

    it('fails a job whose media cannot be fetched with NETWORK_ERROR after its attempts, and releases the slot uncharged', async () => {
      const { apiKey } = await service.createAccount();
      const { body } = await call('POST', '/api/v2/download', {
        key: apiKey,
        json: { url: platform.watchUrl(FIXTURE_VIDEOS.broken.id) },
      });
      const done = await pollUntilFinished(apiKey, body.jobId);
      assert.equal(done.status, 'FAILED');
      assert.equal(done.errorCode, 'NETWORK_ERROR');
      assert.ok(!('downloadUrl' in done));
      // The reservation is released after the job reads as failed: wait for the release, not for a time.
      const deadline = Date.now() + 20_000;
      let used: number;
      for (;;) {
        await service.settle();
        used = (await call('GET', '/api/v2/me', { key: apiKey })).body.balances.download_count.used;
        if (used === 0 || Date.now() > deadline) break;
        await sleep(100);
      }
      assert.equal(used, 0);
    });
  });
