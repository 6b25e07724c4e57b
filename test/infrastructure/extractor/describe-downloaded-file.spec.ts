import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ExtractionError } from '../../../application/ports/extractor/extraction-error.js';
import { describeDownloadedFile } from '../../../infrastructure/extractor/describe-downloaded-file.js';
import { parseReportedVideo } from '../../../infrastructure/extractor/reported-video.js';

/** A path where no ffprobe is: a description that runs one fails, one that does not succeeds. */
const NO_FFPROBE = { ffprobePath: '/nonexistent/ffprobe' };

describe('what a download delivered', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'describe-download-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('takes extracted audio (audio, audio-mp3) as yt-dlp delivered it, without a probe of its own', async () => {
    const m4a = path.join(dir, 'media.m4a');
    await writeFile(m4a, 'four');
    assert.deepEqual(await describeDownloadedFile(m4a, 'audio', NO_FFPROBE), {
      filePath: m4a,
      fileSize: 4,
      actualFormat: 'audio',
      extension: 'm4a',
      mimeType: 'audio/mp4',
    });
    const mp3 = path.join(dir, 'media.mp3');
    await writeFile(mp3, 'x');
    const described = await describeDownloadedFile(mp3, 'audio-mp3', NO_FFPROBE);
    assert.deepEqual([described.actualFormat, described.mimeType], ['audio-mp3', 'audio/mpeg']);
  });

  it('probes a video, and AAC audio, whose delivered height or codec it reports', async () => {
    const mp4 = path.join(dir, 'media.mp4');
    await writeFile(mp4, 'not media');
    for (const format of ['720', 'audio-aac'] as const)
      await assert.rejects(
        describeDownloadedFile(mp4, format, NO_FFPROBE),
        (error: unknown) => error instanceof ExtractionError && /could not be read/.test(error.message),
      );
  });

  it('takes a video’s height from what yt-dlp reported for its streams, without a probe, and probes when it reported none', async () => {
    const mp4 = path.join(dir, 'media.mp4');
    await writeFile(mp4, 'video');
    const reported = { width: 1280, height: 720, vcodec: 'avc1.64001f' };
    assert.deepEqual(await describeDownloadedFile(mp4, '1080', { ...NO_FFPROBE, reported }), {
      filePath: mp4,
      fileSize: 5,
      actualFormat: '720',
      extension: 'mp4',
      mimeType: 'video/mp4',
    });
    await assert.rejects(describeDownloadedFile(mp4, '720', { ...NO_FFPROBE, reported: null }), /could not be read/);
    assert.equal(parseReportedVideo('1280 720 avc1.64001f')?.height, 720);
    for (const unknown of ['NA NA NA', '1280 720 none', '0 720 avc1', '', '1280 NA vp9'])
      assert.equal(parseReportedVideo(unknown), null, unknown);
  });
});
