import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ExtractionError } from '../../../application/ports/extractor.js';
import { YtDlpExtractor } from '../../../infrastructure/extractor/yt-dlp-extractor.js';
import { probeMediaFile } from '../../../infrastructure/media/ffprobe.js';
import { FIXTURE_VIDEOS, type FixturePlatform, startFixturePlatform } from '../../fixtures/platform/fixture-platform.js';

const FFPROBE = process.env.FFPROBE_PATH ?? '/usr/bin/ffprobe';

describe('yt-dlp extractor against the fixture platform', function () {
  this.timeout(60_000);
  let platform: FixturePlatform;
  let extractor: YtDlpExtractor;
  let workDir: string;

  before(async () => {
    platform = await startFixturePlatform();
    extractor = new YtDlpExtractor({
      ytDlpPath: process.env.YT_DLP_PATH ?? '/usr/bin/yt-dlp',
      ffmpegPath: process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg',
      ffprobePath: FFPROBE,
      pythonPath: platform.pluginPath,
    });
  });
  after(async () => platform?.stop());
  beforeEach(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'extractor-test-'));
  });
  afterEach(async () => rm(workDir, { recursive: true, force: true }));

  it('reads title, duration, live status and tags', async () => {
    const clip = await extractor.probe(platform.watchUrl(FIXTURE_VIDEOS.clip.id));
    assert.equal(clip.title, FIXTURE_VIDEOS.clip.title);
    assert.equal(clip.duration, FIXTURE_VIDEOS.clip.duration);
    assert.notEqual(clip.liveStatus, 'is_live');
    assert.deepEqual((await extractor.probe(platform.watchUrl(FIXTURE_VIDEOS.optout.id))).tags, ['music', 'nodownload']);
    assert.equal((await extractor.probe(platform.watchUrl('live-now1'))).liveStatus, 'is_live');
  });

  it('maps the platform refusals to their codes', async () => {
    for (const [id, code] of [
      ['private-1', 'PRIVATE_VIDEO'],
      ['age-1', 'AGE_RESTRICTED'],
      ['members-1', 'MEMBERS_ONLY'],
      ['geo-1', 'GEO_RESTRICTED'],
      ['removed-1', 'VIDEO_NOT_FOUND'],
      ['bot-1', 'NETWORK_ERROR'],
      ['no-such-video', 'VIDEO_NOT_FOUND'],
    ] as const) {
      await assert.rejects(extractor.probe(platform.watchUrl(id)), (error: unknown) => error instanceof ExtractionError && error.code === code, id);
    }
  });

  it('downloads best audio in its own container, without re-encoding', async () => {
    const media = await extractor.download({ url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio', workDir });
    assert.equal(media.actualFormat, 'audio');
    assert.equal(media.extension, 'm4a');
    const probe = await probeMediaFile(FFPROBE, media.filePath);
    assert.deepEqual(probe.streams.map((stream) => [stream.type, stream.codec]), [['audio', 'aac']]);
    assert.ok(Math.abs((probe.duration ?? 0) - 6) < 0.5);
  });

  it('delivers AAC for audio-aac, and best audio reported as audio when no AAC exists', async () => {
    const aac = await extractor.download({ url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio-aac', workDir });
    assert.equal(aac.actualFormat, 'audio-aac');
    const opusDir = await mkdtemp(path.join(tmpdir(), 'extractor-test-'));
    const opus = await extractor.download({ url: platform.watchUrl(FIXTURE_VIDEOS.voice.id), format: 'audio-aac', workDir: opusDir });
    assert.equal(opus.actualFormat, 'audio');
    assert.equal((await probeMediaFile(FFPROBE, opus.filePath)).streams[0].codec, 'opus');
    await rm(opusDir, { recursive: true, force: true });
  });

  it('encodes MP3 at 320 kb/s, keeping the sample rate and the mono channel', async () => {
    const media = await extractor.download({ url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio-mp3', workDir });
    assert.equal(media.mimeType, 'audio/mpeg');
    const [stream] = (await probeMediaFile(FFPROBE, media.filePath)).streams;
    assert.deepEqual([stream.codec, stream.sampleRate, stream.channels, stream.bitRate], ['mp3', 44100, 1, 320000]);
  });

  it('delivers video as MP4 and reports the height it reached', async () => {
    const media = await extractor.download({ url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: '720', workDir });
    assert.equal(media.extension, 'mp4');
    assert.equal(media.actualFormat, '360');
    const video = (await probeMediaFile(FFPROBE, media.filePath)).streams.find((stream) => stream.type === 'video');
    assert.equal(video?.height, 360);
  });

  it('clips to [startTime, endTime)', async () => {
    const media = await extractor.download({ url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio-mp3', startTime: 1, endTime: 4, workDir });
    const duration = (await probeMediaFile(FFPROBE, media.filePath)).duration ?? 0;
    assert.ok(Math.abs(duration - 3) < 0.5, `duration ${duration}`);
  });

  it('reports a failing media server as a network error', async () => {
    await assert.rejects(
      extractor.download({ url: platform.watchUrl(FIXTURE_VIDEOS.broken.id), format: 'audio', workDir }),
      (error: unknown) => error instanceof ExtractionError && error.code === 'NETWORK_ERROR',
    );
  });
});
