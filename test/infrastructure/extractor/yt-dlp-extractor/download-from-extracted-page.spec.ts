import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { YtDlpExtractor } from '../../../../infrastructure/extractor/yt-dlp-extractor.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  startFixturePlatform,
} from '../../../fixtures/platform/fixture-platform.js';
import { FIXTURE_EXTRACTOR_OPTIONS } from '../../../fixtures/platform/extractor-plugin.js';

const YT_DLP = process.env.YT_DLP_PATH ?? 'yt-dlp';
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';

describe('YtDlpExtractor: downloading from a page extracted before', function () {
  this.timeout(120_000);
  let platform: FixturePlatform;
  let root: string;

  before(async () => {
    platform = await startFixturePlatform();
    root = await mkdtemp(path.join(tmpdir(), 'download-from-page-'));
  });
  after(async () => {
    await platform?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('downloads audio and size-capped video from the given page, without extracting the page again', async () => {
    const extractor = new YtDlpExtractor({
      ytDlpPath: YT_DLP,
      ffmpegPath: FFMPEG,
      pythonPath: platform.pluginPath,
      extraArgs: FIXTURE_EXTRACTOR_OPTIONS,
    });
    // The page as `yt-dlp -J` gives it, taken from a run of the command line.
    const pageOf = async (id: string) => {
      const { stdout } = await promisify(execFile)(
        YT_DLP,
        ['-J', '--ignore-config', '--no-cache-dir', ...FIXTURE_EXTRACTOR_OPTIONS, '--', platform.watchUrl(id)],
        {
          env: { ...process.env, PYTHONPATH: platform.pluginPath },
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      return stdout;
    };
    // A URL nothing answers: only the page handed over can make these downloads work.
    const unreachable = 'http://127.0.0.1:9/watch?v=gone';
    const audioDir = path.join(root, 'audio');
    const videoDir = path.join(root, 'video');
    await Promise.all([mkdir(audioDir), mkdir(videoDir)]);
    const audio = await extractor.download({
      url: unreachable,
      format: 'audio',
      workDir: audioDir,
      infoJson: await pageOf(FIXTURE_VIDEOS.clip.id),
    });
    assert.equal(audio.actualFormat, 'audio');
    const video = await extractor.download({
      url: unreachable,
      format: '720',
      maxFileSizeBytes: 1e9,
      workDir: videoDir,
      infoJson: await pageOf(FIXTURE_VIDEOS.multi.id),
    });
    assert.equal(video.actualFormat, '720');
  });
});
