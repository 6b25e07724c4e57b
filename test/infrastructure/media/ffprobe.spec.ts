import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { probeMediaFile } from '../../../infrastructure/media/ffprobe.js';
import { fixtureMedia } from '../../fixtures/platform/fixture-media.js';

const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

describe('ffprobe', function () {
  this.timeout(30_000);

  it('reads container, duration and each stream of a file', async () => {
    const media = await fixtureMedia(FFMPEG);
    const clip = await probeMediaFile(FFPROBE, media.clip);
    assert.match(clip.container, /mp4/);
    assert.ok(Math.abs((clip.duration ?? 0) - 6) < 0.1);
    assert.ok((clip.bitRate ?? 0) > 0);
    const [video, audio] = clip.streams;
    assert.deepEqual([video.type, video.codec, video.width, video.height], ['video', 'h264', 640, 360]);
    assert.ok((video.bitRate ?? 0) > 0);
    assert.deepEqual([audio.type, audio.codec, audio.sampleRate, audio.channels], ['audio', 'aac', 44100, 1]);
    assert.equal(audio.width, null);

    const voice = await probeMediaFile(FFPROBE, media.opus);
    assert.match(voice.container, /webm/);
    assert.deepEqual(
      voice.streams.map((stream) => [stream.type, stream.codec, stream.sampleRate, stream.channels]),
      [['audio', 'opus', 48000, 1]],
    );
  });

  it('reads a file whose name looks like an option or a protocol', async () => {
    const media = await fixtureMedia(FFMPEG);
    const dir = await mkdtemp(path.join(tmpdir(), 'ffprobe-spec-'));
    try {
      const odd = path.join(dir, '-i http:x.webm');
      await copyFile(media.opus, odd);
      assert.equal((await probeMediaFile(FFPROBE, odd)).streams[0].codec, 'opus');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails on a file that is not media', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ffprobe-spec-'));
    try {
      await writeFile(path.join(dir, 'notes.txt'), 'not media');
      await assert.rejects(probeMediaFile(FFPROBE, path.join(dir, 'notes.txt')));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
