import assert from 'node:assert/strict';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { Server } from 'proxy-chain';
import type { Logger } from '../../../../../application/ports/logger.js';
import { installedYtDlpPath, loadConfig } from '../../../../../infrastructure/config/config.js';
import { createYtDlpExtractor } from '../../../../../infrastructure/extractor/create-yt-dlp-extractor.js';
import { warmExtractorOptions } from '../../../../../infrastructure/extractor/warm/configure-warm-extractor.js';
import { pythonOfYtDlp } from '../../../../../infrastructure/extractor/warm/python-of-yt-dlp.js';
import {
  WarmExtractor,
  type WarmExtractorOptions,
} from '../../../../../infrastructure/extractor/warm/warm-extractor.js';
import {
  FIXTURE_COOKIE_ECHO,
  FIXTURE_VIDEOS,
  type FixturePlatform,
  startFixturePlatform,
} from '../../../../fixtures/platform/fixture-platform.js';
import { ownChildren } from '../../../../support/processes.js';
import { ScriptedExtractor } from '../../../../support/scripted-extractor.js';

const YT_DLP = process.env.YT_DLP_PATH ?? installedYtDlpPath();
const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';
const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };
/** The command line behind the helpers, with nothing scripted: any answer must have come from a warm helper. */
const noCommandLine = new ScriptedExtractor();

/**
 * A helper speaking the protocol that answers with its pid as the video id
 * and, as the title, the user name of the proxy URL it was started with (the
 * egress proxy names the operator's proxy behind it that way); a URL ending
 * in `/bot` draws the platform's bot check.
 */
const SETTINGS_ECHO_HELPER = `
import json, os, sys
from urllib.parse import urlsplit
argv = json.loads(os.environ.pop('YT_DLP_HELPER_SETTINGS'))['argv']
proxy = argv[argv.index('--proxy') + 1] if '--proxy' in argv else ''
print(json.dumps({'ready': True, 'version': 'scripted'}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    if request['url'].endswith('/bot'):
        print(json.dumps({'id': request['id'], 'ok': False, 'stderr': "ERROR: [x] abc: Sign in to confirm you're not a bot"}), flush=True)
        continue
    info = {'id': str(os.getpid()), 'title': urlsplit(proxy).username or 'no proxy', 'duration': 1, 'tags': []}
    print(json.dumps({'id': request['id'], 'ok': True, 'info': info}), flush=True)
`;

describe('warm helpers follow the settings they run with', function () {
  this.timeout(120_000);
  let platform: FixturePlatform;
  let scratch: string;
  const closing: Array<{ close(): Promise<void> }> = [];

  before(async () => {
    platform = await startFixturePlatform();
    scratch = await mkdtemp(path.join(tmpdir(), 'warm-helper-settings-'));
    await writeFile(path.join(scratch, 'echo.py'), SETTINGS_ECHO_HELPER);
  });
  afterEach(async () => {
    for (const item of closing.splice(0)) await item.close();
  });
  after(async () => {
    await platform?.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  /** Helpers configured as the service configures them from `env`, one place unless `overrides` say otherwise. */
  function helpers(env: Record<string, string>, overrides: Partial<WarmExtractorOptions> = {}): WarmExtractor {
    const config = loadConfig({
      YT_DLP_PATH: YT_DLP,
      FFMPEG_PATH: FFMPEG,
      YT_DLP_PYTHONPATH: platform.pluginPath,
      EGRESS_ALLOW: platform.host,
      ...env,
    });
    const setup = createYtDlpExtractor(config.extractor, silent, new Registry());
    const extractor = new WarmExtractor(noCommandLine, {
      ...warmExtractorOptions(config.extractor, setup, silent),
      processes: 1,
      ...overrides,
    });
    closing.push(extractor, setup.egress);
    return extractor;
  }

  /** The same, with the scripted helper instead of yt-dlp. */
  async function scriptedHelpers(env: Record<string, string>): Promise<WarmExtractor> {
    return helpers(env, {
      python: (await pythonOfYtDlp(YT_DLP)) ?? ['python3'],
      script: path.join(scratch, 'echo.py'),
    });
  }

  const cookieJar = (account: string) =>
    `# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\t${FIXTURE_COOKIE_ECHO.cookie}\t${account}\n`;

  const helperPids = async () =>
    (await ownChildren()).filter((child) => child.commandLine.includes('yt_dlp_helper.py')).map((child) => child.pid);

  it('a lookup after the cookies file was replaced runs with the new cookies, on the same helper', async () => {
    const cookies = path.join(scratch, 'cookies.txt');
    await writeFile(cookies, cookieJar('alice'));
    const extractor = helpers({ YT_DLP_COOKIES_FILE: cookies });
    const url = platform.watchUrl(FIXTURE_COOKIE_ECHO.id);
    assert.equal((await extractor.probe(url)).title, `${FIXTURE_COOKIE_ECHO.titlePrefix}alice`);
    const running = await helperPids();
    assert.equal(running.length, 1);
    // Replaced whole, as an operator's deployment or an export does.
    await writeFile(`${cookies}.new`, cookieJar('bob'));
    await rename(`${cookies}.new`, cookies);
    assert.equal((await extractor.probe(url)).title, `${FIXTURE_COOKIE_ECHO.titlePrefix}bob`);
    // Written in place, as refreshed cookies merged back by a download are not, but an editor may.
    await writeFile(cookies, cookieJar('carol'));
    assert.equal((await extractor.probe(url)).title, `${FIXTURE_COOKIE_ECHO.titlePrefix}carol`);
    assert.deepEqual(await helperPids(), running, 'the helper read the file again instead of being replaced');
  });

  it("a lookup goes through its platform's own proxy", async () => {
    const upstreamSaw: string[] = [];
    const upstream = new Server({
      port: 0,
      host: '127.0.0.1',
      prepareRequestFunction: ({ hostname, port }) => void upstreamSaw.push(`${hostname}:${port}`),
    });
    await upstream.listen();
    closing.push({ close: () => upstream.close(true) });
    const extractor = helpers({ YT_DLP_PROXIES: `127.0.0.1=http://127.0.0.1:${upstream.port}` });
    const metadata = await extractor.probe(platform.watchUrl(FIXTURE_VIDEOS.clip.id));
    assert.equal(metadata.title, FIXTURE_VIDEOS.clip.title);
    assert.ok(upstreamSaw.includes(platform.host), JSON.stringify(upstreamSaw));
  });

  it('a bot check moves the next lookup to the next proxy of the pool, on a new helper', async () => {
    const extractor = await scriptedHelpers({
      // Never connected to: the scripted helper only reports which proxy it was given.
      YT_DLP_PROXIES: 'video.invalid=http://first.invalid:3128|http://second.invalid:3128',
      PLATFORM_BOT_CHECK_BACKOFF_SECONDS: '0',
    });
    const before = await extractor.probe('https://video.invalid/watch?v=a');
    assert.equal(before.title, 'upstream-0');
    await assert.rejects(extractor.probe('https://video.invalid/watch?v=b/bot'), /bot/);
    const after = await extractor.probe('https://video.invalid/watch?v=c');
    assert.equal(after.title, 'upstream-1', 'the proxy that drew the bot check sits out');
    assert.notEqual(after.id, before.id);
  });

  it('a helper is replaced after WARM_EXTRACTOR_MAX_LOOKUPS lookups', async () => {
    const extractor = await scriptedHelpers({ WARM_EXTRACTOR_MAX_LOOKUPS: '2' });
    const pids = [];
    for (const video of ['a', 'b', 'c', 'd', 'e'])
      pids.push((await extractor.probe(`https://video.invalid/${video}`)).id);
    assert.equal(pids[1], pids[0]);
    assert.notEqual(pids[2], pids[1], 'replaced after its second lookup');
    assert.equal(pids[3], pids[2]);
    assert.notEqual(pids[4], pids[3]);
  });

  it('a helper past WARM_EXTRACTOR_MAX_MEMORY_MB after a lookup is replaced', async () => {
    // Any Python process holds more than 1 MiB.
    const extractor = await scriptedHelpers({ WARM_EXTRACTOR_MAX_MEMORY_MB: '1', WARM_EXTRACTOR_MAX_LOOKUPS: '0' });
    const first = await extractor.probe('https://video.invalid/a');
    const second = await extractor.probe('https://video.invalid/b');
    assert.notEqual(second.id, first.id);
  });

  it('helpers within their bounds keep serving', async () => {
    const extractor = await scriptedHelpers({});
    const first = await extractor.probe('https://video.invalid/a');
    const second = await extractor.probe('https://video.invalid/b');
    assert.equal(second.id, first.id);
  });
});
