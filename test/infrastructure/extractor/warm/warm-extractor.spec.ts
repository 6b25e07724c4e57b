import assert from 'node:assert/strict';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ExtractionError } from '../../../../application/ports/extractor/extraction-error.js';
import type { MediaDownloader } from '../../../../application/ports/extractor/media-downloader.js';
import type { Logger } from '../../../../application/ports/logger.js';
import { Registry } from 'prom-client';
import { installedYtDlpPath, loadConfig } from '../../../../infrastructure/config/config.js';
import { createYtDlpExtractor } from '../../../../infrastructure/extractor/create-yt-dlp-extractor.js';
import { PlatformAccess } from '../../../../infrastructure/extractor/platform-access.js';
import { warmExtractorOptions } from '../../../../infrastructure/extractor/warm/configure-warm-extractor.js';
import { WarmExtractor, type WarmExtractorOptions } from '../../../../infrastructure/extractor/warm/warm-extractor.js';
import { pythonOfYtDlp } from '../../../../infrastructure/extractor/warm/python-of-yt-dlp.js';
import { YtDlpExtractor } from '../../../../infrastructure/extractor/yt-dlp-extractor.js';
import { FIXTURE_EXTRACTOR_OPTIONS } from '../../../fixtures/platform/extractor-plugin.js';
import { FIXTURE_ARGUMENT_ECHO } from '../../../fixtures/platform/fixture-catalog.js';
import {
  FIXTURE_LIVE,
  FIXTURE_MISSING_VIDEO_ID,
  FIXTURE_REFUSALS,
  FIXTURE_VIDEOS,
  type FixturePlatform,
  startFixturePlatform,
} from '../../../fixtures/platform/fixture-platform.js';
import { ScriptedExtractor } from '../../../support/scripted-extractor.js';

const YT_DLP = process.env.YT_DLP_PATH ?? installedYtDlpPath();
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

const accessSettings = (
  overrides: Partial<ConstructorParameters<typeof PlatformAccess>[0]>,
): ConstructorParameters<typeof PlatformAccess>[0] => ({
  cookies: {},
  proxies: {},
  proxyCooldownMs: 60_000,
  concurrency: {},
  spacingMs: {},
  botCheckBackoffMs: 60_000,
  ...overrides,
});

/** What the command line answers a download with: a file, or, when it refuses pages, a 403 for a download handed one. */
const commandLineDownload =
  ({ refusePages }: { refusePages: boolean }): MediaDownloader['download'] =>
  async (request) => {
    if (refusePages && request.infoJson !== undefined)
      throw new ExtractionError('NETWORK_ERROR', 'HTTP Error 403: Forbidden');
    return {
      filePath: '/nowhere/media.m4a',
      fileSize: 1,
      actualFormat: 'audio',
      extension: 'm4a',
      mimeType: 'audio/mp4',
    };
  };

/** Stands for the command line behind the helpers, recording what reached it. */
function commandLineStandIn(): ScriptedExtractor {
  return new ScriptedExtractor({
    probe: async () => ({ id: 'from-command-line', title: 'command line', duration: 1, liveStatus: null, tags: [] }),
    download: commandLineDownload({ refusePages: false }),
  });
}

/** The extracted-page store, in memory. */
class PagesInMemory {
  readonly pages = new Map<string, string>();
  async remember(url: string, identity: string, json: string): Promise<void> {
    this.pages.set(`${identity} ${url}`, json);
  }
  async recall(url: string, identity: string): Promise<string | null> {
    return this.pages.get(`${identity} ${url}`) ?? null;
  }
}

/**
 * A helper speaking the same protocol whose behaviour the URL picks: `sleep`
 * never answers, `crash` dies mid-request, `fail` answers with yt-dlp's
 * words, one ending in `/bot` with the platform's bot check, one ending in
 * `/slow` takes 300 ms and answers with when it started and ended, `seen`
 * with every URL this helper was asked for, `meet/<name>` with `met` once
 * two helpers hold a request of that name (`alone` after 8 s); anything else
 * answers with the helper's pid as the video id.
 */
const SCRIPTED_HELPER = `
import json, os, sys, time
print(json.dumps({'ready': True, 'version': 'scripted'}), flush=True)
seen = []
for line in sys.stdin:
    request = json.loads(line)
    url = request['url']
    seen.append(url)
    if url == 'sleep' or url.endswith('/slow'):
        # Tells the test the request reached this helper, so it need not guess with a pause; beside this script, so it goes with the test's scratch folder.
        open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'warm-received-%d' % os.getpid()), 'w').close()
    if url.endswith('/bot'):
        print(json.dumps({'id': request['id'], 'ok': False, 'stderr': "ERROR: [x] abc: Sign in to confirm you're not a bot"}), flush=True)
        continue
    if url.endswith('/slow'):
        started = time.time()
        time.sleep(0.3)
        url = json.dumps([started, time.time()])
    if url == 'seen':
        url = ' '.join(seen)
    if url.startswith('meet/'):
        # A marker per helper; two of them mean two helpers held a request of this name at the same time.
        here = os.path.dirname(os.path.abspath(__file__))
        prefix = 'warm-meet-%s-' % url[5:]
        open(os.path.join(here, prefix + str(os.getpid())), 'w').close()
        met = lambda: len([name for name in os.listdir(here) if name.startswith(prefix)]) >= 2
        deadline = time.time() + 8
        while not met() and time.time() < deadline:
            time.sleep(0.02)
        url = 'met' if met() else 'alone'
    if url == 'sleep':
        time.sleep(60)
    if url == 'crash':
        os._exit(3)
    if url == 'fail':
        print(json.dumps({'id': request['id'], 'ok': False, 'stderr': 'WARNING: something\\nERROR: [x] abc: Private video. Sign in if granted access'}), flush=True)
        continue
    print(json.dumps({'id': request['id'], 'ok': True, 'info': {'id': str(os.getpid()), 'title': url, 'duration': 5.2, 'tags': []}}), flush=True)
`;

describe('WarmExtractor', function () {
  this.timeout(60_000);
  const closing: WarmExtractor[] = [];
  let scratch: string;
  let python: readonly string[];

  before(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'warm-extractor-'));
    await writeFile(path.join(scratch, 'scripted.py'), SCRIPTED_HELPER);
    python = (await pythonOfYtDlp(YT_DLP)) ?? ['python3'];
  });
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((extractor) => extractor.close()));
  });
  after(async () => rm(scratch, { recursive: true, force: true }));

  const scripted = (overrides: Partial<WarmExtractorOptions> = {}) => {
    const commandLine = commandLineStandIn();
    const extractor = new WarmExtractor(commandLine, {
      ytDlpPath: YT_DLP,
      ffmpegPath: FFMPEG,
      processes: 1,
      requestTimeoutMs: 5_000,
      logger: silent,
      python,
      script: path.join(scratch, 'scripted.py'),
      ...overrides,
    });
    closing.push(extractor);
    return { extractor, commandLine };
  };

  describe('with a scripted helper', () => {
    it('answers from one long-lived process', async () => {
      const { extractor, commandLine } = scripted();
      const first = await extractor.probe('a');
      const second = await extractor.probe('b');
      assert.equal(first.id, second.id, 'the same helper answered both');
      assert.equal(first.duration, 6);
      assert.deepEqual(commandLine.probed, []);
    });

    it('classifies a refusal from the words yt-dlp would print, as the command line does', async () => {
      const { extractor } = scripted();
      await assert.rejects(
        extractor.probe('fail'),
        (error: unknown) =>
          error instanceof ExtractionError && error.code === 'PRIVATE_VIDEO' && !error.message.includes('ERROR'),
      );
    });

    it('kills a helper that takes too long, fails the request as a timeout, and starts a new helper for the next one', async () => {
      const { extractor } = scripted({ requestTimeoutMs: 300 });
      const before = await extractor.probe('a');
      await assert.rejects(
        extractor.probe('sleep'),
        (error: unknown) =>
          error instanceof ExtractionError && error.code === 'NETWORK_ERROR' && /timed out/.test(error.message),
      );
      const after = await extractor.probe('a');
      assert.notEqual(after.id, before.id);
    });

    it('answers the request of a helper that died on the command line, and replaces the helper', async () => {
      const { extractor, commandLine } = scripted();
      const before = await extractor.probe('a');
      assert.equal((await extractor.probe('crash')).id, 'from-command-line');
      assert.deepEqual(commandLine.probed, ['crash']);
      const after = await extractor.probe('a');
      assert.notEqual(after.id, before.id);
    });

    it('stops waiting when the caller aborts, and the helper is replaced', async () => {
      const { extractor } = scripted();
      const controller = new AbortController();
      const running = extractor.probe('sleep', { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('cancelled')), 200);
      await assert.rejects(running, /cancelled/);
      assert.equal((await extractor.probe('a')).title, 'a');
    });

    it('restarts its helpers when another yt-dlp is installed: idle ones at once, a busy one after its request', async () => {
      let installation = 0;
      const { extractor } = scripted({ installation: async () => installation });
      const before = await extractor.probe('a');
      assert.equal((await extractor.probe('b')).id, before.id, 'the same installation, the same helper');
      installation += 1;
      const afterUpdate = await extractor.probe('c');
      assert.notEqual(afterUpdate.id, before.id, 'an idle helper of the old yt-dlp was retired');
      await eventually(() => !processExists(Number(before.id)));

      await rm(receivedMarker(scratch, afterUpdate.id), { force: true });
      const busy = extractor.probe('x/slow');
      await eventuallyAsync(() => exists(receivedMarker(scratch, afterUpdate.id)));
      installation += 1;
      const queued = extractor.probe('d');
      assert.equal((await busy).id, afterUpdate.id, 'the request under way was answered by its helper');
      assert.notEqual((await queued).id, afterUpdate.id, 'and that helper was retired after it');
    });

    it('replaces helpers killed while idle, however often, instead of waiting for their places', async () => {
      const { extractor, commandLine } = scripted({ processes: 2 });
      for (let round = 0; round < 3; round += 1) {
        const pids = (await Promise.all([extractor.probe('x/slow'), extractor.probe('x/slow')])).map((answer) =>
          Number(answer.id),
        );
        for (const pid of pids) process.kill(pid, 'SIGKILL');
        await eventually(() => pids.every((pid) => !processExists(pid)));
        const after = await within(10_000, extractor.probe('a'));
        assert.ok(!pids.includes(Number(after.id)), `round ${round}: answered by a new helper`);
      }
      assert.deepEqual(commandLine.probed, []);
    });

    it("answers on the command line when its helper is killed mid-request, and frees the helper's place", async () => {
      const { extractor, commandLine } = scripted({ processes: 1 });
      const first = Number((await extractor.probe('a')).id);
      await rm(receivedMarker(scratch, first), { force: true });
      const busy = extractor.probe('sleep');
      await eventuallyAsync(() => exists(receivedMarker(scratch, first)));
      process.kill(first, 'SIGKILL');
      assert.equal((await within(10_000, busy)).id, 'from-command-line');
      const after = await within(10_000, extractor.probe('b'));
      assert.notEqual(Number(after.id), first);
      assert.deepEqual(commandLine.probed, ['sleep']);
    });

    it('answers on the command line when a helper is killed while starting, and starts helpers again later', async () => {
      const pidFile = path.join(scratch, 'starting.pid');
      await writeFile(
        path.join(scratch, 'slow-start.py'),
        `import os, time\nopen(${JSON.stringify(pidFile)}, 'w').write(str(os.getpid()))\ntime.sleep(2)\n${SCRIPTED_HELPER}`,
      );
      await rm(pidFile, { force: true });
      const { extractor, commandLine } = scripted({
        processes: 1,
        script: path.join(scratch, 'slow-start.py'),
        retryStartAfterMs: 200,
      });
      const starting = extractor.probe('a');
      let pid = 0;
      await eventuallyAsync(async () => {
        pid = Number(await readFile(pidFile, 'utf8').catch(() => '0'));
        return pid > 0;
      });
      process.kill(pid, 'SIGKILL');
      assert.equal((await within(10_000, starting)).id, 'from-command-line');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const later = await within(20_000, extractor.probe('b'));
      assert.notEqual(later.id, 'from-command-line', 'a helper started again once the pause was over');
      assert.deepEqual(commandLine.probed, ['a']);
    });

    it('sends a request to the command line when every helper stays busy longer than it may wait', async () => {
      const { extractor, commandLine } = scripted({ processes: 1, acquireTimeoutMs: 300, requestTimeoutMs: 1_500 });
      const busy = extractor.probe('sleep').catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = Date.now();
      assert.equal((await within(4_000, extractor.probe('b'))).id, 'from-command-line');
      assert.ok(Date.now() - started < 4_000);
      assert.deepEqual(commandLine.probed, ['b']);
      await extractor.close();
      await busy;
    });

    it('runs requests side by side up to its number of processes, and queues the rest', async () => {
      const { extractor, commandLine } = scripted({ processes: 2, requestTimeoutMs: 20_000, acquireTimeoutMs: 30_000 });
      // Each request waits in its helper until a second helper holds one too: helpers used one after the other answer "alone".
      const answers = await Promise.all([1, 2, 3, 4].map(() => extractor.probe('meet/side-by-side')));
      assert.deepEqual(
        answers.map((answer) => answer.title),
        ['met', 'met', 'met', 'met'],
      );
      const pids = new Set(answers.map((answer) => Number(answer.id)));
      assert.equal(pids.size, 2, 'two helpers, the other requests queued for them');
      assert.deepEqual(commandLine.probed, []);
    });

    it("hands the page extracted at submission to the job's download, which then need not extract it again", async () => {
      const pages = new PagesInMemory();
      const { extractor, commandLine } = scripted({ extractedInfo: pages });
      await extractor.probe('page-1');
      await extractor.download({ url: 'page-1', format: 'audio', workDir: '/unused' });
      await extractor.download({ url: 'page-2', format: 'audio', workDir: '/unused' });
      assert.equal(JSON.parse(commandLine.downloads[0].infoJson ?? '{}').title, 'page-1');
      assert.equal(
        commandLine.downloads[1].infoJson,
        undefined,
        'a page never extracted here is extracted by the download',
      );
    });

    it('downloads once more from the page itself when the download from the submitted page fails', async () => {
      const pages = new PagesInMemory();
      const { extractor, commandLine } = scripted({ extractedInfo: pages });
      commandLine.script.download = commandLineDownload({ refusePages: true });
      await extractor.probe('page-1');
      await extractor.download({ url: 'page-1', format: 'audio', workDir: '/unused' });
      assert.deepEqual(
        commandLine.downloads.map((request) => request.infoJson !== undefined),
        [true, false],
      );
    });

    it('refuses a lookup on a platform in back-off without asking a helper, once a helper drew a bot check from it', async () => {
      const checks: string[] = [];
      const access = new PlatformAccess(accessSettings({ botCheckBackoffMs: 60_000 }), {
        botCheck: (platform) => checks.push(platform),
      });
      const { extractor, commandLine } = scripted({ access });
      await assert.rejects(
        extractor.probe('http://127.0.0.1:1/bot'),
        (error: unknown) => error instanceof ExtractionError && error.code === 'NETWORK_ERROR',
      );
      assert.deepEqual(checks, ['127.0.0.1']);
      await assert.rejects(
        extractor.probe('http://127.0.0.1:1/clip'),
        (error: unknown) =>
          error instanceof ExtractionError &&
          error.code === 'NETWORK_ERROR' &&
          /paused/.test(error.message) &&
          /Retry in 60 s/.test(error.details ?? ''),
      );
      assert.equal(
        (await extractor.probe('seen')).title,
        'http://127.0.0.1:1/bot seen',
        'the refused lookup reached no helper',
      );
      assert.deepEqual(commandLine.probed, [], 'nor the command line');
    });

    it("cools down the operator's proxy behind the egress proxy when a helper draws a bot check", async () => {
      const cooled: Array<string | undefined> = [];
      const access = new PlatformAccess(
        accessSettings({ botCheckBackoffMs: 60_000, proxies: { '*': ['http://127.0.0.2:3128'] } }),
        { botCheck: (_platform, proxy) => cooled.push(proxy) },
      );
      const { extractor } = scripted({ access, proxyUrl: () => 'http://direct:secret@127.0.0.1:9' });
      await assert.rejects(
        extractor.probe('http://127.0.0.1:1/bot'),
        (error: unknown) => error instanceof ExtractionError && error.code === 'NETWORK_ERROR',
      );
      assert.deepEqual(cooled, ['http://127.0.0.2:3128']);
    });

    it("keeps the platform's concurrency across helpers", async () => {
      const access = new PlatformAccess(accessSettings({ concurrency: { '127.0.0.1': 1 } }));
      const { extractor } = scripted({ access, processes: 2 });
      const answers = await Promise.all([
        extractor.probe('http://127.0.0.1:1/slow'),
        extractor.probe('http://127.0.0.1:1/slow'),
      ]);
      const [first, second] = answers
        .map((answer) => JSON.parse(answer.title) as [number, number])
        .sort((a, b) => a[0] - b[0]);
      assert.ok(second[0] >= first[1], `one at a time: ${JSON.stringify([first, second])}`);
    });

    it('falls back to the command line when no helper can start', async () => {
      const { extractor, commandLine } = scripted({ script: path.join(scratch, 'missing.py') });
      assert.equal((await extractor.probe('a')).id, 'from-command-line');
      const notPython = scripted({ python: undefined, ytDlpPath: FFMPEG.includes('/') ? FFMPEG : '/usr/bin/ffmpeg' });
      assert.equal((await notPython.extractor.probe('b')).id, 'from-command-line');
      assert.deepEqual([...commandLine.probed, ...notPython.commandLine.probed], ['a', 'b']);
    });
  });

  describe("with yt-dlp's own Python, against the fixture platform", () => {
    let platform: FixturePlatform;
    let commandLine: YtDlpExtractor;
    let warm: WarmExtractor;
    let spy: ScriptedExtractor;

    before(async () => {
      platform = await startFixturePlatform();
      const options = {
        ytDlpPath: YT_DLP,
        ffmpegPath: FFMPEG,
        pythonPath: platform.pluginPath,
        extraArgs: FIXTURE_EXTRACTOR_OPTIONS,
        socketTimeoutSeconds: 10,
      };
      commandLine = new YtDlpExtractor(options);
      spy = commandLineStandIn();
      warm = new WarmExtractor(spy, { ...options, processes: 2, requestTimeoutMs: 30_000, logger: silent });
      await warm.start();
    });
    after(async () => {
      await warm?.close();
      await platform?.stop();
    });

    it('gives the same metadata as `yt-dlp -J`, audio tracks included', async () => {
      for (const video of [FIXTURE_VIDEOS.clip, FIXTURE_VIDEOS.multi, FIXTURE_VIDEOS.optout]) {
        const url = platform.watchUrl(video.id);
        assert.deepEqual(
          await warm.probe(url, { includeAudioTracks: true }),
          await commandLine.probe(url, { includeAudioTracks: true }),
        );
      }
      assert.deepEqual(spy.probed, [], 'answered by the helper, not the command line');
    });

    it('loads the extractor plugins from YT_DLP_PYTHONPATH: live streams and refusals', async () => {
      assert.equal((await warm.probe(platform.liveUrl(FIXTURE_LIVE.id))).liveStatus, 'is_live');
      const cases = [
        ...Object.entries(FIXTURE_REFUSALS).map(([kind, refusal]) => [`${kind}-w1`, refusal.expectedCode] as const),
        [FIXTURE_MISSING_VIDEO_ID, 'VIDEO_NOT_FOUND'] as const,
      ];
      for (const [id, code] of cases) {
        const [warmError, commandLineError] = await Promise.all([
          warm.probe(platform.watchUrl(id)).catch((error: unknown) => error),
          commandLine.probe(platform.watchUrl(id)).catch((error: unknown) => error),
        ]);
        assert.ok(warmError instanceof ExtractionError, id);
        assert.ok(commandLineError instanceof ExtractionError, id);
        assert.equal(warmError.code, code, id);
        assert.equal(warmError.message, commandLineError.message, id);
      }
      assert.deepEqual(spy.probed, [], 'answered by the helper, not the command line');
    });
  });

  describe("with the service's settings and yt-dlp's own Python, against the fixture platform", () => {
    let platform: FixturePlatform;
    before(async () => {
      platform = await startFixturePlatform();
    });
    after(async () => platform?.stop());

    /** Helpers configured as the service configures them, in front of a command line that only records. */
    const asTheServiceDoes = (env: Record<string, string>) => {
      const config = loadConfig({
        YT_DLP_PATH: YT_DLP,
        FFMPEG_PATH: FFMPEG,
        YT_DLP_PYTHONPATH: platform.pluginPath,
        ...env,
      });
      const metrics = new Registry();
      const setup = createYtDlpExtractor(config.extractor, silent, metrics);
      const commandLine = commandLineStandIn();
      const extractor = new WarmExtractor(commandLine, {
        ...warmExtractorOptions(config.extractor, setup, silent),
        processes: 1,
      });
      closing.push(extractor);
      return { extractor, commandLine, metrics };
    };

    it("hands YT_DLP_EXTRACTOR_ARGS to the platform's extractor", async () => {
      const { extractor, commandLine } = asTheServiceDoes({
        YT_DLP_EXTRACTOR_ARGS: `youtube:player_client=default ${FIXTURE_ARGUMENT_ECHO.ieKey}:${FIXTURE_ARGUMENT_ECHO.argument}=first,second`,
      });
      const metadata = await extractor.probe(platform.watchUrl(FIXTURE_ARGUMENT_ECHO.id));
      assert.equal(metadata.title, `${FIXTURE_ARGUMENT_ECHO.titlePrefix}first,second`);
      assert.deepEqual(commandLine.probed, [], 'answered by the helper');
    });

    it('backs the platform off after a bot check a helper drew: metric raised, lookups refused without running', async () => {
      const { extractor, commandLine, metrics } = asTheServiceDoes({ PLATFORM_BOT_CHECK_BACKOFF_SECONDS: '30' });
      await assert.rejects(
        extractor.probe(platform.watchUrl('bot-w2')),
        (error: unknown) =>
          error instanceof ExtractionError && error.code === 'NETWORK_ERROR' && /not a bot/.test(error.details ?? ''),
      );
      const exported = await metrics.metrics();
      assert.match(exported, /platform_bot_checks_total\{platform="127.0.0.1"\} 1/);
      assert.match(exported, /platform_backoff_seconds\{platform="127.0.0.1"\} 30/);
      const visitsBefore = platform.watchPageVisits();
      await assert.rejects(
        extractor.probe(platform.watchUrl(FIXTURE_VIDEOS.clip.id)),
        (error: unknown) =>
          error instanceof ExtractionError && /paused/.test(error.message) && /Retry in 30 s/.test(error.details ?? ''),
      );
      assert.equal(platform.watchPageVisits(), visitsBefore, 'the platform was not asked');
      assert.deepEqual(commandLine.probed, [], 'nor was the command line');
    });
  });
});

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The file a scripted helper creates when a 'sleep' or '/slow' request reaches it. */
function receivedMarker(scratch: string, pid: string | number): string {
  return path.join(scratch, `warm-received-${pid}`);
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

async function eventuallyAsync(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The answer, or a failure naming the wait: a request that never settles fails the test instead of hanging it. */
async function within<T>(timeoutMs: number, answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
