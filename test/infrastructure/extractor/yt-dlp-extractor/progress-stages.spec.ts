import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExtractorProgress } from '../../../../application/ports/extractor/media-downloader.js';
import { YtDlpExtractor } from '../../../../infrastructure/extractor/yt-dlp-extractor.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  startFixturePlatform,
} from '../../../fixtures/platform/fixture-platform.js';
import { FIXTURE_EXTRACTOR_OPTIONS } from '../../../fixtures/platform/extractor-plugin.js';

const YT_DLP = process.env.YT_DLP_PATH ?? 'yt-dlp';
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

describe('YtDlpExtractor progress stages against the fixture platform', function () {
  this.timeout(60_000);
  let platform: FixturePlatform;
  let root: string;

  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'progress-stages-spec-'));
    platform = await startFixturePlatform({ ffmpegPath: FFMPEG });
  });
  after(async () => {
    await platform?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('reports downloading with its figures, then converting while ffmpeg makes the MP3', async () => {
    const extractor = new YtDlpExtractor({
      ytDlpPath: YT_DLP,
      ffmpegPath: FFMPEG,
      ffprobePath: FFPROBE,
      pythonPath: platform.pluginPath,
      extraArgs: FIXTURE_EXTRACTOR_OPTIONS,
    });
    const updates: ExtractorProgress[] = [];
    const media = await extractor.download({
      url: platform.watchUrl(FIXTURE_VIDEOS.clip.id),
      format: 'audio-mp3',
      workDir: root,
      onProgress: (update) => updates.push(update),
    });
    assert.ok(media.fileSize > 0);
    const stages = updates.map((update) => update.stage);
    const firstConverting = stages.indexOf('converting');
    assert.ok(stages.includes('downloading'), JSON.stringify(stages));
    assert.ok(
      firstConverting > stages.indexOf('downloading'),
      `converting follows downloading: ${JSON.stringify(stages)}`,
    );
    assert.ok(
      stages.slice(firstConverting).every((stage) => stage === 'converting'),
      'nothing is downloaded after conversion starts',
    );
    const lastDownloading = updates.filter((update) => update.stage === 'downloading').at(-1);
    assert.ok((lastDownloading?.totalBytes ?? 0) > 0);
    const last = updates.at(-1);
    assert.equal(last?.downloadedBytes, last?.totalBytes, 'the whole stream was downloaded before converting');
  });
});
