import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type { Logger } from '../../../../../application/ports/logger.js';
import { ExtractionError } from '../../../../../application/ports/extractor/extraction-error.js';
import { installedYtDlpPath, loadConfig } from '../../../../../infrastructure/config/config.js';
import type { EgressEvent } from '../../../../../infrastructure/egress/egress-proxy.js';
import { createYtDlpExtractor } from '../../../../../infrastructure/extractor/create-yt-dlp-extractor.js';
import { warmExtractorOptions } from '../../../../../infrastructure/extractor/warm/configure-warm-extractor.js';
import { WarmExtractor } from '../../../../../infrastructure/extractor/warm/warm-extractor.js';
import {
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

describe('warm helpers go through the egress proxy', function () {
  this.timeout(120_000);
  let platform: FixturePlatform;
  const closing: Array<{ close(): Promise<void> }> = [];
  before(async () => {
    platform = await startFixturePlatform();
  });
  after(async () => {
    for (const item of closing) await item.close();
    await platform?.stop();
  });

  function helpers(env: Record<string, string>) {
    const config = loadConfig({
      YT_DLP_PATH: YT_DLP,
      FFMPEG_PATH: FFMPEG,
      YT_DLP_PYTHONPATH: platform.pluginPath,
      ...env,
    });
    const setup = createYtDlpExtractor(config.extractor, silent, new Registry());
    // Not spread: the options' proxy is read when a helper starts, once the egress proxy listens.
    const extractor = new WarmExtractor(
      noCommandLine,
      Object.assign(warmExtractorOptions(config.extractor, setup, silent), { processes: 1 }),
    );
    closing.push(extractor, setup.egress);
    const allowed: EgressEvent[] = [];
    const refused: EgressEvent[] = [];
    setup.egress.on('allowed', (event: EgressEvent) => allowed.push(event));
    setup.egress.on('refused', (event: EgressEvent) => refused.push(event));
    return { extractor, allowed, refused };
  }

  it('a helper fetches an allowed platform through the proxy', async () => {
    const { extractor, allowed } = helpers({ EGRESS_ALLOW: platform.host });
    const metadata = await extractor.probe(platform.watchUrl(FIXTURE_VIDEOS.clip.id));
    assert.equal(metadata.title, FIXTURE_VIDEOS.clip.title);
    assert.ok(
      allowed.some((event) => event.url === platform.watchUrl(FIXTURE_VIDEOS.clip.id)),
      JSON.stringify(allowed),
    );
    // The proxy's address carries its credentials: not on a command line, which every local user can read.
    const commandLines = (await ownChildren())
      .map((child) => child.commandLine)
      .filter((commandLine) => commandLine.includes('yt_dlp_helper.py'));
    assert.ok(commandLines.length > 0, 'a helper runs');
    for (const commandLine of commandLines) assert.doesNotMatch(commandLine, /--proxy|direct:|@127\./);
  });

  it('a helper is refused a loopback platform that is not allowed, even when no_proxy names it', async () => {
    const saved = process.env.no_proxy;
    // Python and ffmpeg would skip the proxy for these hosts, were it left in the environment the helpers inherit.
    process.env.no_proxy = '127.0.0.1,localhost';
    try {
      const { extractor, refused } = helpers({});
      const visits = platform.watchPageVisits();
      await assert.rejects(extractor.probe(platform.watchUrl(FIXTURE_VIDEOS.clip.id)), (error: unknown) => {
        assert.ok(error instanceof ExtractionError);
        assert.match(error.message, /an address this service may not reach/);
        assert.match(error.details ?? '', /Forbidden by the egress rule/);
        return true;
      });
      assert.ok(
        refused.some((event) => event.target === platform.host),
        JSON.stringify(refused),
      );
      assert.equal(platform.watchPageVisits(), visits, 'the platform was not reached');
    } finally {
      if (saved === undefined) delete process.env.no_proxy;
      else process.env.no_proxy = saved;
    }
  });
});
