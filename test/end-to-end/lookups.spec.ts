import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import type { Clock } from '../../application/ports/clock.js';
import { DEFAULT_PLAN_CATALOG } from '../../infrastructure/config/plan-catalog.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { ExpiredLookupJobsSweeper } from '../../infrastructure/postgres/expired-lookup-jobs-sweeper.js';
import {
  FIXTURE_BIG_CHANNEL,
  FIXTURE_CHANNEL,
  FIXTURE_CLIENT_DOWNLOAD_PATHS,
  FIXTURE_DUBBED,
  FIXTURE_MISSING_CHANNEL_HANDLE,
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const runFile = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The system clock, moved forward on demand, so a job's lifetime can pass without waiting for it. */
class AdjustableClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const INFO_TTL_SECONDS = 120;

describe('end to end: video info, channel listing and client-download links', function () {
  this.timeout(180_000);
  let platform: FixturePlatform;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  const clock = new AdjustableClock();

  before(async () => {
    platform = await startFixturePlatform();
    // The starter plan with small lookup quotas, so exhausting them takes a few requests.
    const catalogDir = await mkdtemp(path.join(tmpdir(), 'lookup-plans-'));
    const catalogFile = path.join(catalogDir, 'plans.json');
    const starter = DEFAULT_PLAN_CATALOG.starter;
    await writeFile(
      catalogFile,
      JSON.stringify({
        ...DEFAULT_PLAN_CATALOG,
        starter: { ...starter, allowances: { ...starter.allowances, info: 3, client_download: 2, channel_list: 5 } },
      }),
    );
    service = await startTestService({
      label: 'lookups',
      env: {
        ...serviceEnvFor(platform),
        PLAN_CATALOG_FILE: catalogFile,
        INFO_JOB_TTL_SECONDS: String(INFO_TTL_SECONDS),
        DOWNLOAD_MAX_ATTEMPTS: '2',
        DOWNLOAD_RETRY_BASE_MS: '100',
        CHANNEL_LISTINGS_PER_ACCOUNT: '8',
        CHANNEL_LISTINGS_MAX: '8',
      },
      overrides: { clock },
    });
    call = apiClient(service.url);
  });
  after(async () => {
    await service?.stop();
    await platform?.stop();
  });

  const growth = (addOns: Array<'client_download' | 'channel_list'> = ['client_download', 'channel_list']) =>
    service.createAccount({ planId: 'growth', addOns });

  async function pollUntilFinished(endpoint: 'info' | 'client-download', key: string, jobId: string) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await call('GET', `/api/v2/${endpoint}/${jobId}`, { key });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      if (response.body.status !== 'pending') return response.body;
      assert.ok(Date.now() < deadline, `job ${jobId} still pending`);
      await sleep(100);
    }
  }

  async function balances(key: string, until: (balances: any) => boolean = () => true) {
    let body: any;
    for (let i = 0; i < 100; i += 1) {
      await service.settle();
      body = (await call('GET', '/api/v2/me', { key })).body;
      if (until(body.balances)) return body.balances;
      await sleep(100);
    }
    return body.balances;
  }

  describe('POST /info and GET /info/{jobId}', () => {
    it('answers title, duration and url, and with includeAudioTracks the tracks, original first; each success charges one info unit', async () => {
      const { apiKey } = await growth([]);
      const url = platform.watchUrl(FIXTURE_VIDEOS.clip.id);
      const plain = await call('POST', '/api/v2/info', { key: apiKey, json: { url } });
      assert.equal(plain.status, 200);
      assert.equal(plain.body.status, 'pending');
      const first = await call('GET', `/api/v2/info/${plain.body.jobId}`, { key: apiKey });
      assert.equal(first.status, 200, 'a poll right after the submit finds the job');
      assert.deepEqual(await pollUntilFinished('info', apiKey, plain.body.jobId), {
        jobId: plain.body.jobId,
        status: 'success',
        result: { title: FIXTURE_VIDEOS.clip.title, duration: FIXTURE_VIDEOS.clip.duration, url },
      });

      const dubbedUrl = platform.watchUrl(FIXTURE_DUBBED.id);
      const withTracks = await call('POST', '/api/v2/info', {
        key: apiKey,
        json: { url: dubbedUrl, includeAudioTracks: true },
      });
      const done = await pollUntilFinished('info', apiKey, withTracks.body.jobId);
      assert.deepEqual(done.result, {
        title: FIXTURE_DUBBED.title,
        duration: FIXTURE_DUBBED.duration,
        url: dubbedUrl,
        audio: FIXTURE_DUBBED.expectedAudio,
      });

      // Any accepted spelling is answered as it was submitted, though the platform is asked at the canonical URL.
      for (const submitted of [
        platform.shortUrl(FIXTURE_VIDEOS.clip.id),
        `${platform.watchUrl(FIXTURE_VIDEOS.clip.id)}&feature=share`,
      ]) {
        const job = await call('POST', '/api/v2/info', { key: apiKey, json: { url: submitted } });
        assert.equal(job.status, 200, JSON.stringify(job.body));
        const answered = await pollUntilFinished('info', apiKey, job.body.jobId);
        assert.deepEqual(
          answered.result,
          { title: FIXTURE_VIDEOS.clip.title, duration: FIXTURE_VIDEOS.clip.duration, url: submitted },
          submitted,
        );
      }

      const after = await balances(apiKey, (b) => b.info.used === 4);
      assert.equal(after.info.used, 4);
      assert.equal(after.download_count.used, 0);
      assert.equal(after.bandwidth_mb.used, 0, 'no bandwidth');
      await sleep(300);
      assert.equal((await balances(apiKey)).info.used, 4, 'charged exactly once per job');
    });

    it('fails with the error and its code for a recognised condition, and charges nothing', async () => {
      const { apiKey, accountId } = await growth([]);
      const submitted = await call('POST', '/api/v2/info', {
        key: apiKey,
        json: { url: platform.watchUrl('private-x1') },
      });
      const done = await pollUntilFinished('info', apiKey, submitted.body.jobId);
      assert.equal(done.status, 'failed');
      assert.equal(done.errorCode, 'PRIVATE_VIDEO');
      assert.equal(done.error, 'The video is private', 'in the service’s words, not the platform’s');
      // A failed job's reservation is released after it reads as failed: wait for the release, not for a time.
      assert.equal((await balances(apiKey, (b) => b.info.used === 0)).info.used, 0);
      const db = service.service.container.resolve<Knex>(TOKENS.database);
      const account = await db('accounts').where('account_id', accountId).first();
      assert.deepEqual(account.state.pendingLookups, [], 'the reservation was released');
    });

    it('answers 404 to other accounts and for unknown ids, and 404 once the lifetime has passed; the sweep removes the row, the events stay', async () => {
      const owner = await growth([]);
      const other = await growth([]);
      const submitted = await call('POST', '/api/v2/info', {
        key: owner.apiKey,
        json: { url: platform.shortUrl(FIXTURE_VIDEOS.clip.id) },
      });
      const { jobId } = submitted.body;
      await pollUntilFinished('info', owner.apiKey, jobId);
      assert.equal((await call('GET', `/api/v2/info/${jobId}`, { key: other.apiKey })).status, 404);
      assert.equal(
        (await call('GET', '/api/v2/info/00000000-0000-0000-0000-000000000000', { key: owner.apiKey })).status,
        404,
      );

      await service.settle();
      const db = service.service.container.resolve<Knex>(TOKENS.database);
      const row = await db('lookup_jobs').where({ kind: 'info', job_id: jobId }).first();
      const expiresAt = row.expires_at.getTime();
      assert.equal(expiresAt - row.created_at.getTime(), INFO_TTL_SECONDS * 1000);
      clock.offsetMs = expiresAt - 2000 - Date.now();
      assert.equal(
        (await call('GET', `/api/v2/info/${jobId}`, { key: owner.apiKey })).status,
        200,
        'still within its lifetime',
      );
      clock.offsetMs = expiresAt + 1000 - Date.now();
      try {
        const expired = await call('GET', `/api/v2/info/${jobId}`, { key: owner.apiKey });
        assert.equal(expired.status, 404);
        assert.match(expired.body.error, /not found/);
        assert.ok((await new ExpiredLookupJobsSweeper(db, clock).sweep()) >= 1);
        assert.deepEqual(await db('lookup_jobs').where({ kind: 'info', job_id: jobId }), []);
        assert.equal(
          (await call('GET', `/api/v2/info/${jobId}`, { key: owner.apiKey })).status,
          404,
          'the stream no longer answers for an expired job',
        );
      } finally {
        clock.offsetMs = 0;
      }
      const { rows } = await db.raw('SELECT count(*)::int AS count FROM es_events WHERE stream_name = ?', [
        `info-${jobId}`,
      ]);
      assert.ok(rows[0].count >= 2, 'the events stay for auditors');
    });

    it('refuses malformed requests with 400 naming the field, and exhausted quotas with 403, before any job exists', async () => {
      const { apiKey, accountId } = await service.createAccount({ planId: 'starter' });
      const cases: Array<[unknown, RegExp]> = [
        [{}, /url/],
        [{ url: 42 }, /url/],
        [{ url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), includeAudioTracks: 'yes' }, /includeAudioTracks/],
        [{ url: 'https://evil.example/watch?v=abc' }, /^url must be a video URL/],
        [{ url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), extra: 1 }, /extra/],
      ];
      for (const [json, message] of cases) {
        const response = await call('POST', '/api/v2/info', { key: apiKey, json });
        assert.equal(response.status, 400, JSON.stringify(json));
        assert.match(response.body.error, message);
      }
      // The plan allows 3 info requests: 5 at once admit exactly 3.
      const url = platform.watchUrl(FIXTURE_VIDEOS.clip.id);
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => call('POST', '/api/v2/info', { key: apiKey, json: { url } })),
      );
      assert.deepEqual(responses.map((r) => r.status).sort(), [200, 200, 200, 403, 403]);
      for (const refused of responses.filter((r) => r.status === 403))
        assert.deepEqual(refused.body, { error: 'Credit limit reached' });
      for (const accepted of responses.filter((r) => r.status === 200))
        await pollUntilFinished('info', apiKey, accepted.body.jobId);
      assert.equal((await balances(apiKey, (b) => b.info.used === 3)).info.used, 3);
      await service.settle();
      const db = service.service.container.resolve<Knex>(TOKENS.database);
      assert.equal((await db('lookup_jobs').where({ account_id: accountId })).length, 3);
    });
  });

  describe('POST /list-channel', () => {
    it('passes the flat listing through with the contract properties; 23 entries charge 3 units', async () => {
      const { apiKey } = await growth();
      const channelUrl = platform.pageUrl(`/${FIXTURE_BIG_CHANNEL.handle}/videos`);
      const response = await call('POST', '/api/v2/list-channel', { key: apiKey, json: { channelUrl, maxVideos: 30 } });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      const listing = response.body;
      assert.equal(listing.id, FIXTURE_BIG_CHANNEL.id);
      assert.equal(listing.channel, FIXTURE_BIG_CHANNEL.title);
      assert.equal(listing.channel_id, FIXTURE_BIG_CHANNEL.id);
      assert.equal(listing.channel_url, platform.pageUrl(`/channel/${FIXTURE_BIG_CHANNEL.id}`));
      assert.equal(typeof listing.title, 'string');
      assert.equal(listing.entries.length, 23);
      const [newest] = FIXTURE_BIG_CHANNEL.videos;
      assert.deepEqual(
        {
          id: listing.entries[0].id,
          title: listing.entries[0].title,
          url: listing.entries[0].url,
          duration: listing.entries[0].duration,
          view_count: listing.entries[0].view_count,
          uploader: listing.entries[0].uploader,
        },
        {
          id: newest.id,
          title: newest.title,
          url: platform.watchUrl(newest.id),
          duration: newest.duration,
          view_count: 23_000,
          uploader: FIXTURE_BIG_CHANNEL.title,
        },
      );
      assert.ok(
        listing.entries.every(
          (entry: Record<string, unknown>) => !Object.keys(entry).some((key) => key.startsWith('__')),
        ),
      );
      // The platform gave these entries no uploader of their own: the channel's is filled in.
      assert.deepEqual(
        new Set(listing.entries.map((entry: Record<string, unknown>) => entry.uploader)),
        new Set([FIXTURE_BIG_CHANNEL.title]),
      );
      assert.equal((await balances(apiKey)).channel_list.used, 3);
    });

    it('takes every channel URL form, with or without /videos, and lists maxVideos (default 5)', async () => {
      const { apiKey } = await growth();
      const forms = [
        `/${FIXTURE_CHANNEL.handle}`,
        `/channel/${FIXTURE_CHANNEL.id}`,
        `/c/${FIXTURE_CHANNEL.name}/videos`,
        `/user/${FIXTURE_CHANNEL.name}`,
      ];
      for (const form of forms) {
        const response = await call('POST', '/api/v2/list-channel', {
          key: apiKey,
          json: { channelUrl: platform.pageUrl(form), maxVideos: 2 },
        });
        assert.equal(response.status, 200, form);
        assert.deepEqual(
          response.body.entries.map((entry: { id: string }) => entry.id),
          [FIXTURE_VIDEOS.multi.id, FIXTURE_VIDEOS.voice.id],
          form,
        );
      }
      const byDefault = await call('POST', '/api/v2/list-channel', {
        key: apiKey,
        json: { channelUrl: platform.pageUrl(`/${FIXTURE_BIG_CHANNEL.handle}`) },
      });
      assert.equal(byDefault.body.entries.length, 5);
      assert.equal((await balances(apiKey)).channel_list.used, forms.length + 1);
    });

    it('refuses bad requests with 400, a channel that does not exist with 400, and charges neither', async () => {
      const { apiKey } = await growth();
      const channelUrl = platform.pageUrl(`/${FIXTURE_CHANNEL.handle}`);
      const cases: Array<[unknown, RegExp]> = [
        [{}, /channelUrl/],
        [{ channelUrl, maxVideos: 0 }, /maxVideos/],
        [{ channelUrl, maxVideos: 1001 }, /maxVideos/],
        [{ channelUrl, maxVideos: 2.5 }, /maxVideos/],
        [{ channelUrl: platform.watchUrl(FIXTURE_VIDEOS.clip.id) }, /^channelUrl must be a channel URL/],
        [{ channelUrl: 'https://evil.example/@someone' }, /^channelUrl must be a channel URL/],
      ];
      for (const [json, message] of cases) {
        const response = await call('POST', '/api/v2/list-channel', { key: apiKey, json });
        assert.equal(response.status, 400, JSON.stringify(json));
        assert.match(response.body.error, message);
      }
      const missing = await call('POST', '/api/v2/list-channel', {
        key: apiKey,
        json: { channelUrl: platform.pageUrl(`/${FIXTURE_MISSING_CHANNEL_HANDLE}`) },
      });
      assert.equal(missing.status, 400);
      assert.match(missing.body.error, /^The channel was not found/);
      assert.equal(missing.body.details, 'VIDEO_NOT_FOUND');
      assert.equal((await balances(apiKey)).channel_list.used, 0);
    });

    it('refuses an account without the add-on with 403 naming it, charging nothing', async () => {
      const { apiKey } = await growth(['client_download']);
      const response = await call('POST', '/api/v2/list-channel', {
        key: apiKey,
        json: { channelUrl: platform.pageUrl(`/${FIXTURE_CHANNEL.handle}`) },
      });
      assert.equal(response.status, 403);
      assert.match(response.body.error, /channel_list add-on is not enabled/);
    });

    it('refuses a listing whose maxVideos would exceed the remaining units, and concurrent listings never overspend', async () => {
      const { apiKey } = await service.createAccount({ planId: 'starter', addOns: ['channel_list'] });
      const channelUrl = platform.pageUrl(`/${FIXTURE_BIG_CHANNEL.handle}`);
      const tooMany = await call('POST', '/api/v2/list-channel', { key: apiKey, json: { channelUrl, maxVideos: 60 } });
      assert.equal(tooMany.status, 403, '60 videos could cost 6 of the 5 units');
      assert.deepEqual(tooMany.body, { error: 'Credit limit reached' });
      // Five units, eight listings of one unit each at once (the service admits eight at once here): exactly five are served.
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          call('POST', '/api/v2/list-channel', { key: apiKey, json: { channelUrl, maxVideos: 10 } }),
        ),
      );
      assert.deepEqual(responses.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 403, 403, 403]);
      const after = await balances(apiKey);
      assert.deepEqual([after.channel_list.used, after.channel_list.remaining], [5, 0]);
    });
  });

  describe('POST /client-download and GET /client-download/{jobId}', () => {
    it('resolves direct links, best first, for every link shape of every platform, and charges one unit per job', async () => {
      const { apiKey } = await growth();
      const video = FIXTURE_VIDEOS.clip;
      const urls = [
        ...Object.values(FIXTURE_CLIENT_DOWNLOAD_PATHS).map((shape) => platform.pageUrl(shape(video.id))),
        platform.watchUrl(video.id),
        platform.shortUrl(video.id),
        platform.liveUrl(video.id),
      ];
      const jobs = [];
      for (const url of urls) {
        const submitted = await call('POST', '/api/v2/client-download', { key: apiKey, json: { url } });
        assert.equal(submitted.status, 200, `${url}: ${JSON.stringify(submitted.body)}`);
        assert.equal(submitted.body.status, 'pending');
        jobs.push({ url, jobId: submitted.body.jobId as string });
      }
      for (const { url, jobId } of jobs) {
        const done = await pollUntilFinished('client-download', apiKey, jobId);
        assert.equal(done.status, 'success', `${url}: ${JSON.stringify(done)}`);
        assert.equal(done.result.url, url);
        assert.equal(done.result.title, video.title);
        assert.equal(done.result.duration, video.duration);
        assert.equal(done.result.downloadLinks[0].type, 'video');
        assert.equal(
          done.result.downloadLinks[0].url,
          `${platform.baseUrl}/media/${video.id}/video.mp4`,
          'no smuggled extractor data in links',
        );
        assert.equal((await fetch(done.result.downloadLinks[0].url, { method: 'HEAD' })).status, 200);
      }
      const reel = await pollUntilFinished('client-download', apiKey, jobs[1].jobId);
      assert.deepEqual(
        reel.result.downloadLinks.map((link: Record<string, unknown>) => ({
          ...link,
          sizeBytes: typeof link.sizeBytes,
        })),
        [
          {
            url: `${platform.baseUrl}/media/${video.id}/video.mp4`,
            type: 'video',
            hasAudio: true,
            width: 640,
            height: 360,
            sizeBytes: 'number',
          },
          {
            url: `${platform.baseUrl}/media/${FIXTURE_VIDEOS.voice.id}/audio.webm`,
            type: 'audio',
            hasAudio: true,
            audioBitrate: 48,
            sizeBytes: 'number',
          },
        ],
      );
      assert.equal(reel.result.author, video.uploader);
      assert.equal(reel.result.description, video.description);
      assert.equal(reel.result.authorUrl, platform.pageUrl(`/${FIXTURE_CHANNEL.handle}`));
      assert.equal(reel.result.thumbnailUrl, `${platform.baseUrl}/thumbnails/${video.id}.jpg`);
      assert.equal(
        (await balances(apiKey, (b) => b.client_download.used === urls.length)).client_download.used,
        urls.length,
      );
    });

    it('fails a post that cannot be resolved with an error, charging nothing, and hides jobs from other accounts', async () => {
      const { apiKey } = await growth();
      const other = await growth();
      const submitted = await call('POST', '/api/v2/client-download', {
        key: apiKey,
        json: { url: platform.pageUrl('/reel/nosuchreel') },
      });
      assert.equal(submitted.status, 200);
      const done = await pollUntilFinished('client-download', apiKey, submitted.body.jobId);
      assert.equal(done.status, 'failed');
      assert.equal(
        done.error,
        'The video is unavailable on the platform',
        'in the service’s words, not the platform’s',
      );
      assert.equal(
        (await call('GET', `/api/v2/client-download/${submitted.body.jobId}`, { key: other.apiKey })).status,
        404,
      );
      assert.equal((await call('GET', '/api/v2/client-download/not%20a%20job', { key: apiKey })).status, 404);
      assert.equal((await balances(apiKey, (b) => b.client_download.used === 0)).client_download.used, 0);
    });

    it('refuses unsupported links with 400, accounts without the add-on with 403 naming it, and exhausted allowances with 403', async () => {
      const { apiKey } = await growth();
      for (const [url, message] of [
        [platform.pageUrl('/pages/about/us'), /is not a video link this service supports/],
        ['http://evil.example/reel/abc', /evil\.example is not a supported host/],
        [platform.pageUrl('/reel/bad%20id'), /not a video link/],
      ] as const) {
        const response = await call('POST', '/api/v2/client-download', { key: apiKey, json: { url } });
        // The body names the cause of a wrong status (a 401 says whether the key was unknown or missing).
        assert.equal(response.status, 400, `${url}: ${JSON.stringify(response.body)}`);
        assert.match(response.body.error, message);
      }
      assert.match((await call('POST', '/api/v2/client-download', { key: apiKey, json: {} })).body.error, /url/);

      const withoutAddOn = await growth(['channel_list']);
      const url = platform.pageUrl(FIXTURE_CLIENT_DOWNLOAD_PATHS['photo sharing /reel'](FIXTURE_VIDEOS.clip.id));
      const refused = await call('POST', '/api/v2/client-download', { key: withoutAddOn.apiKey, json: { url } });
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.match(refused.body.error, /client_download add-on is not enabled/);

      const small = await service.createAccount({ planId: 'starter', addOns: ['client_download'] });
      const responses = await Promise.all(
        Array.from({ length: 4 }, () => call('POST', '/api/v2/client-download', { key: small.apiKey, json: { url } })),
      );
      assert.deepEqual(responses.map((r) => r.status).sort(), [200, 200, 403, 403]);
      for (const accepted of responses.filter((r) => r.status === 200))
        await pollUntilFinished('client-download', small.apiKey, accepted.body.jobId);
      assert.equal((await balances(small.apiKey, (b) => b.client_download.used === 2)).client_download.used, 2);
    });
  });

  it("the auditors' replay lists every lookup charge with what caused it, and agrees with /me", async () => {
    const { accountId, apiKey } = await growth();
    const info = await call('POST', '/api/v2/info', {
      key: apiKey,
      json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id) },
    });
    const client = await call('POST', '/api/v2/client-download', {
      key: apiKey,
      json: { url: platform.pageUrl(`/p/${FIXTURE_VIDEOS.clip.id}`) },
    });
    await pollUntilFinished('info', apiKey, info.body.jobId);
    await pollUntilFinished('client-download', apiKey, client.body.jobId);
    const channelUrl = platform.pageUrl(`/${FIXTURE_BIG_CHANNEL.handle}`);
    await call('POST', '/api/v2/list-channel', { key: apiKey, json: { channelUrl, maxVideos: 23 } });
    await balances(apiKey, (b) => b.info.used === 1 && b.client_download.used === 1);

    const env = {
      ...process.env,
      DATABASE_URL: service.config.storage.databaseUrl,
      MASTER_KEY_FILE: service.config.security.masterKeyFile,
      LOG_LEVEL: 'silent',
    };
    const audit = path.resolve('build/infrastructure/cli/audit.js');
    const report = JSON.parse((await runFile(process.execPath, [audit, accountId, '--json'], { env })).stdout);
    assert.deepEqual(report.differences, []);
    const lookups = report.entries.filter((entry: { kind: string }) => entry.kind === 'lookup-charge');
    assert.deepEqual(
      lookups
        .map((entry: { feature: string; lookupId: string; units: number; subject: string }) => [
          entry.feature,
          entry.units,
          entry.subject,
        ])
        .sort(),
      [
        ['channel_list', 3, channelUrl],
        ['client_download', 1, platform.pageUrl(`/p/${FIXTURE_VIDEOS.clip.id}`)],
        ['info', 1, platform.watchUrl(FIXTURE_VIDEOS.clip.id)],
      ],
    );
    assert.ok(lookups.some((entry: { lookupId: string }) => entry.lookupId === info.body.jobId));
    const text = (await runFile(process.execPath, [audit, accountId], { env })).stdout;
    assert.match(text, /channel_list 3 unit/);
    assert.match(text, /OK: the service reports the same balances/);
  });
});
