import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { ExtractionError } from '../../../application/ports/extractor/extraction-error.js';
import { loadConfig } from '../../../infrastructure/config/config.js';
import { createYtDlpExtractor } from '../../../infrastructure/extractor/create-yt-dlp-extractor.js';
import { mergeCookieJars } from '../../../infrastructure/extractor/merge-cookie-jars.js';
import {
  PlatformAccess,
  type PlatformAccessSettings,
  isBotCheck,
} from '../../../infrastructure/extractor/platform-access.js';
import { platformOf } from '../../../infrastructure/extractor/platform-of.js';
import { YtDlpExtractor } from '../../../infrastructure/extractor/yt-dlp-extractor.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  startFixturePlatform,
} from '../../fixtures/platform/fixture-platform.js';
import { installedYtDlpPath } from '../../../infrastructure/config/config.js';
import { FIXTURE_EXTRACTOR_OPTIONS } from '../../fixtures/platform/extractor-plugin.js';

const YT_DLP = process.env.YT_DLP_PATH ?? installedYtDlpPath();
const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';
const HEADER = '# Netscape HTTP Cookie File';
const cookie = (name: string, value: string, domain = '127.0.0.1') =>
  [domain, 'FALSE', '/', 'FALSE', '2000000000', name, value].join('\t');
const cookieNames = (jar: string) =>
  jar
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('# '))
    .map((line) => line.split('\t')[5])
    .sort();

/** The proxy a run's options name: in the private options file `--config-locations` points at. */
async function proxyIn(args: readonly string[]): Promise<string | undefined> {
  const at = args.indexOf('--config-locations');
  if (at === -1) return undefined;
  const line = await readFile(args[at + 1], 'utf8');
  return /^--proxy '([^']*)'\n$/.exec(line)?.[1];
}

const settings = (overrides: Partial<PlatformAccessSettings> = {}): PlatformAccessSettings => ({
  cookies: {},
  proxies: {},
  proxyCooldownMs: 60_000,
  concurrency: {},
  spacingMs: {},
  botCheckBackoffMs: 60_000,
  ...overrides,
});

describe('platform access controls', () => {
  describe('rules', () => {
    it('names platforms by host, folding www., m., music. and youtu.be', () => {
      assert.equal(platformOf('https://www.youtube.com/watch?v=x'), 'youtube.com');
      assert.equal(platformOf('https://music.youtube.com/watch?v=x'), 'youtube.com');
      assert.equal(platformOf('https://youtu.be/x'), 'youtube.com');
      assert.equal(platformOf('http://127.0.0.1:8765/watch?v=x'), '127.0.0.1');
      assert.equal(platformOf('not a url'), null);
    });

    it('recognises the bot check and HTTP 429, with either apostrophe', () => {
      assert.ok(isBotCheck("ERROR: [youtube] abc: Sign in to confirm you're not a bot. Use --cookies…"));
      assert.ok(isBotCheck('ERROR: [youtube] abc: Sign in to confirm you\u2019re not a bot'));
      assert.ok(isBotCheck('ERROR: unable to download video data: HTTP Error 429: Too Many Requests'));
      assert.ok(!isBotCheck('ERROR: [youtube] abc: Private video. Sign in if you have been granted access'));
    });

    it('merges a run’s cookie changes into the jar others changed meanwhile', () => {
      const base = [HEADER, cookie('session', '1'), cookie('old', 'x')].join('\n');
      const ours = [HEADER, cookie('session', '1'), cookie('old', 'x'), cookie('other_run', 'y')].join('\n');
      const theirs = [HEADER, cookie('session', '2'), cookie('new', 'z')].join('\n');
      assert.equal(
        mergeCookieJars(base, ours, theirs),
        `${[HEADER, cookie('session', '2'), cookie('other_run', 'y'), cookie('new', 'z')].join('\n')}\n`,
      );
    });

    it('rotates proxies round-robin, cools down one that drew a bot check, and backs the platform off', async () => {
      let now = 1_000_000;
      const checks: Array<[string, string | undefined]> = [];
      const access = new PlatformAccess(
        settings({
          proxies: { '*': ['http://p1', 'http://p2', 'http://p3'] },
          proxyCooldownMs: 10_000,
          botCheckBackoffMs: 5_000,
        }),
        { botCheck: (platform, proxy) => checks.push([platform, proxy]) },
        () => now,
      );
      const dir = await mkdtemp(path.join(tmpdir(), 'access-'));
      const proxyOf = async (stderr: string | null = '') => {
        const run = await access.begin('https://www.youtube.com/watch?v=a', {
          scratchDir: dir,
          waitForPlatform: false,
        });
        const proxy = await proxyIn(run.args);
        await run.finish(stderr);
        return proxy;
      };
      assert.deepEqual([await proxyOf(), await proxyOf(), await proxyOf()], ['http://p1', 'http://p2', 'http://p3']);
      assert.equal(await proxyOf("ERROR: Sign in to confirm you're not a bot"), 'http://p1');
      assert.deepEqual(checks, [['youtube.com', 'http://p1']]);
      assert.equal(access.backoffRemainingMs('youtube.com'), 5_000);
      await assert.rejects(
        access.begin('https://youtu.be/a', { scratchDir: dir, waitForPlatform: false }),
        (error: unknown) => error instanceof ExtractionError && error.code === 'NETWORK_ERROR',
      );
      assert.equal(
        await proxyIn(
          (await access.begin('https://other.example/a', { scratchDir: dir, waitForPlatform: false })).args,
        ),
        'http://p2',
        'other platforms go on',
      );
      now += 5_000;
      assert.deepEqual(
        [await proxyOf(), await proxyOf(), await proxyOf()],
        ['http://p2', 'http://p3', 'http://p2'],
        'p1 is left out while it cools down',
      );
      now += 5_000;
      assert.deepEqual(
        [await proxyOf(), await proxyOf(), await proxyOf()],
        ['http://p2', 'http://p3', 'http://p1'],
        'p1 is back in turn once cooled down',
      );
    });

    it('keeps a platform’s concurrency and spacing', async () => {
      const access = new PlatformAccess(settings({ concurrency: { '127.0.0.1': 1 }, spacingMs: { '127.0.0.1': 150 } }));
      const dir = await mkdtemp(path.join(tmpdir(), 'access-'));
      const started: number[] = [];
      const t0 = Date.now();
      await Promise.all(
        [0, 1, 2].map(async () => {
          const run = await access.begin('http://127.0.0.1:1/watch?v=a', { scratchDir: dir, waitForPlatform: true });
          started.push(Date.now() - t0);
          await new Promise((resolve) => setTimeout(resolve, 50));
          await run.finish(null);
        }),
      );
      assert.equal(started.length, 3);
      // All three asked at t0, so the n-th run may start no sooner than n spacings later. Measured from t0, not from the run
      // before: a busy machine can resume the run before late, which shortens the gap the test sees but not the schedule.
      for (let index = 1; index < started.length; index += 1)
        assert.ok(started[index] >= index * 150 - 10, `runs spaced: ${started.join(', ')}`);
    });
  });

  it('keeps both processes’ cookies when two processes write refreshed cookies back into one jar at once', async function () {
    this.timeout(60_000);
    const dir = await mkdtemp(path.join(tmpdir(), 'jar-'));
    const jar = path.join(dir, 'cookies.txt');
    await writeFile(jar, [HEADER, cookie('kept', 'yes'), ''].join('\n'));
    const runs = 40;
    const startAt = Date.now() + 1_000;
    const runProcess = (label: string) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            path.resolve('build/test/support/cookie-refreshing-process.js'),
            jar,
            dir,
            label,
            String(runs),
            String(startAt),
          ],
          { stdio: ['ignore', 'inherit', 'inherit'] },
        );
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${label} exited with ${code}`))));
      });
    await Promise.all([runProcess('a'), runProcess('b')]);
    const expected = [
      'kept',
      ...['a', 'b'].flatMap((label) => Array.from({ length: runs }, (_, run) => `${label}_${run}`)),
    ].sort();
    assert.deepEqual(cookieNames(await readFile(jar, 'utf8')), expected);
  });

  describe('with yt-dlp against the fixture platform', function () {
    this.timeout(120_000);
    let platform: FixturePlatform;
    before(async () => {
      platform = await startFixturePlatform();
    });
    after(async () => platform?.stop());

    it('writes refreshed cookies back after concurrent runs without losing any run’s cookies', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'jar-'));
      const jar = path.join(dir, 'cookies.txt');
      await writeFile(jar, [HEADER, cookie('kept', 'yes'), ''].join('\n'));
      const extractor = new YtDlpExtractor({
        ytDlpPath: YT_DLP,
        ffmpegPath: FFMPEG,
        pythonPath: platform.pluginPath,
        extraArgs: FIXTURE_EXTRACTOR_OPTIONS,
        access: new PlatformAccess(settings({ cookies: { '*': [jar] } })),
      });
      const videos = [FIXTURE_VIDEOS.clip, FIXTURE_VIDEOS.voice, FIXTURE_VIDEOS.multi, FIXTURE_VIDEOS.optout];
      await Promise.all(videos.map((video) => extractor.probe(platform.watchUrl(video.id))));
      const written = await readFile(jar, 'utf8');
      assert.ok(written.startsWith(HEADER));
      assert.deepEqual(
        cookieNames(written),
        ['fixture_session', 'kept', ...videos.map((video) => `seen_${video.id.replace(/\W/g, '_')}`)].sort(),
      );
    });

    it('backs the platform off after a bot check from the platform: lookups refused, downloads held, metric raised', async () => {
      const config = loadConfig({
        YT_DLP_PATH: YT_DLP,
        FFMPEG_PATH: FFMPEG,
        YT_DLP_PYTHONPATH: platform.pluginPath,
        YT_DLP_PROXIES: '127.0.0.1=http://127.0.0.1:9|http://127.0.0.1:10',
        PLATFORM_BOT_CHECK_BACKOFF_SECONDS: '2',
      });
      const metrics = new Registry();
      const { extractor } = await createYtDlpExtractor(config.extractor, createLogger('silent'), metrics);
      await assert.rejects(
        extractor.probe(platform.watchUrl('bot-x1')),
        (error: unknown) =>
          error instanceof ExtractionError && error.code === 'NETWORK_ERROR' && /not a bot/.test(error.details ?? ''),
      );
      const exported = await metrics.metrics();
      assert.match(exported, /platform_bot_checks_total\{platform="127.0.0.1"\} 1/);
      assert.match(exported, /platform_backoff_seconds\{platform="127.0.0.1"\} 2/);
      const started = Date.now();
      const visits = platform.watchPageVisits();
      await assert.rejects(extractor.probe(platform.watchUrl(FIXTURE_VIDEOS.clip.id)), /paused/);
      assert.equal(platform.watchPageVisits(), visits, 'refused without running yt-dlp');
      const workDir = await mkdtemp(path.join(tmpdir(), 'held-'));
      await extractor
        .download({ url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio', workDir })
        .catch((error: unknown) => error);
      assert.ok(Date.now() - started >= 1_500, 'the download waited out the back-off');
    });
  });
});
