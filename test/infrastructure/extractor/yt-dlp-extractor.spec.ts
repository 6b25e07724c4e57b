import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExtractionError } from '../../../application/ports/extractor/extraction-error.js';
import type { DownloadMediaRequest, DownloadedMedia } from '../../../application/ports/extractor/media-downloader.js';
import type { DownloadErrorCode } from '../../../domain/download-error-code.js';
import { YtDlpExtractor } from '../../../infrastructure/extractor/yt-dlp-extractor.js';
import { type MediaProbe, type MediaStream, probeMediaFile } from '../../../infrastructure/media/ffprobe.js';
import {
  FIXTURE_LIVE,
  FIXTURE_MISSING_VIDEO_ID,
  FIXTURE_REFUSALS,
  FIXTURE_VIDEOS,
  type FixturePlatform,
  type FixtureVideoKey,
  startFixturePlatform,
} from '../../fixtures/platform/fixture-platform.js';
import { concurrencyLimit } from './concurrency-limit.js';
import { FIXTURE_EXTRACTOR_OPTIONS } from '../../fixtures/platform/extractor-plugin.js';

const YT_DLP = process.env.YT_DLP_PATH ?? 'yt-dlp';
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

type Download = Omit<DownloadMediaRequest, 'url' | 'workDir'> & { video: FixtureVideoKey };

/**
 * Every download the suite checks. They start together when the suite does,
 * a few at a time (yt-dlp is mostly Python start-up), and each test awaits
 * its own: the suite takes as long as the work, not the sum of the waits.
 */
const DOWNLOADS = {
  audio: { video: 'clip', format: 'audio' },
  audioOpus: { video: 'voice', format: 'audio' },
  aac: { video: 'clip', format: 'audio-aac' },
  aacWithoutAac: { video: 'voice', format: 'audio-aac' },
  mp3: { video: 'clip', format: 'audio-mp3' },
  mp3Stereo: { video: 'multi', format: 'audio-mp3' },
  hls720: { video: 'multi', format: '720' },
  hls1080: { video: 'multi', format: '1080' },
  progressive360: { video: 'clip', format: '360' },
  capped: { video: 'multi', format: '720', maxFileSizeBytes: 1_000_000 },
  cappedClipFits: { video: 'multi', format: '720', maxFileSizeBytes: 1_000_000, startTime: 0, endTime: 4 },
  german: { video: 'multi', format: 'audio', language: 'de' },
  germanVideo: { video: 'multi', format: '360', language: 'de' },
  spanishFallsBack: { video: 'multi', format: 'audio-aac', language: 'es' },
  noLanguageIsOriginal: { video: 'multi', format: 'audio' },
  clippedMp3: { video: 'clip', format: 'audio-mp3', startTime: 1, endTime: 4 },
  clippedVideo: { video: 'multi', format: '480', startTime: 1, endTime: 4 },
  clippedToEnd: { video: 'clip', format: 'audio', startTime: 2 },
} as const satisfies Record<string, Download>;

describe('YtDlpExtractor against the fixture platform', function () {
  this.timeout(60_000);
  const limit = concurrencyLimit(3);
  // Lookups keep a queue of their own: behind the downloads the suite queues at start, a lookup test's clock ran
  // through all of them, which a busy machine did not finish within the test's timeout.
  const probes = concurrencyLimit(2);
  const results = new Map<
    keyof typeof DOWNLOADS,
    Promise<{ media: DownloadedMedia; probe: MediaProbe; progress: number[] }>
  >();
  let platform: FixturePlatform;
  let extractor: YtDlpExtractor;
  let root: string;

  const workDir = async (name: string) => {
    const dir = path.join(root, `${name}-${Math.random().toString(36).slice(2, 8)}`);
    await mkdir(dir);
    return dir;
  };
  const downloaded = (name: keyof typeof DOWNLOADS) => {
    const result = results.get(name);
    assert.ok(result !== undefined, name);
    return result;
  };
  const expectCode = async (run: Promise<unknown>, code: DownloadErrorCode, label: string) => {
    await assert.rejects(run, (error: unknown) => {
      assert.ok(error instanceof ExtractionError, `${label}: ${String(error)}`);
      assert.equal(error.code, code, `${label}: ${error.message}\n${error.details ?? ''}`);
      return true;
    });
  };

  before(async function () {
    this.timeout(30_000);
    root = await mkdtemp(path.join(tmpdir(), 'yt-dlp-extractor-spec-'));
    platform = await startFixturePlatform({ ffmpegPath: FFMPEG });
    // Runs fork from one warm yt-dlp, as a worker's do (lookups.spec.ts keeps the command started for each run).
    extractor = new YtDlpExtractor({
      ytDlpPath: YT_DLP,
      ffmpegPath: FFMPEG,
      ffprobePath: FFPROBE,
      pythonPath: platform.pluginPath,
      extraArgs: FIXTURE_EXTRACTOR_OPTIONS,
      warmUpOnFirstUse: true,
    });
    extractor.forks?.start();
    for (const [name, { video, ...request }] of Object.entries(DOWNLOADS) as Array<
      [keyof typeof DOWNLOADS, Download]
    >) {
      const run = limit(async () => {
        const progress: number[] = [];
        const media = await extractor.download({
          ...request,
          url: platform.watchUrl(FIXTURE_VIDEOS[video].id),
          workDir: await workDir(name),
          onProgress: ({ downloadedBytes }) => progress.push(downloadedBytes),
        });
        return { media, probe: await probeMediaFile(FFPROBE, media.filePath), progress };
      });
      run.catch(() => undefined);
      results.set(name, run);
    }
  });

  after(async () => {
    await Promise.allSettled(results.values());
    extractor?.forks?.stop();
    await platform?.stop();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  describe('probe', () => {
    it('reads title, whole-second duration, tags and live status from a watch page', async () => {
      const clip = await probes(() => extractor.probe(platform.watchUrl(FIXTURE_VIDEOS.clip.id)));
      assert.equal(clip.title, FIXTURE_VIDEOS.clip.title);
      assert.equal(clip.duration, FIXTURE_VIDEOS.clip.duration);
      assert.deepEqual(clip.tags, FIXTURE_VIDEOS.clip.tags);
      assert.notEqual(clip.liveStatus, 'is_live');
      assert.equal(clip.audioTracks, undefined);
    });

    it('reads the same video through the short-host form', async () => {
      const short = await probes(() => extractor.probe(platform.shortUrl(FIXTURE_VIDEOS.voice.id)));
      assert.equal(short.title, FIXTURE_VIDEOS.voice.title);
    });

    it("reports the creator's no-download tag", async () => {
      assert.deepEqual((await probes(() => extractor.probe(platform.watchUrl(FIXTURE_VIDEOS.optout.id)))).tags, [
        'music',
        'nodownload',
      ]);
    });

    it('reports a stream in progress as is_live, with the title as the platform gives it', async () => {
      for (const url of [platform.liveUrl(FIXTURE_LIVE.id), platform.watchUrl(FIXTURE_LIVE.id)]) {
        const live = await probes(() => extractor.probe(url));
        assert.equal(live.liveStatus, 'is_live', url);
        assert.equal(live.title, FIXTURE_LIVE.title, 'yt-dlp appends a date to title, not to fulltitle');
      }
    });

    it('lists the original and dubbed audio tracks, the original first', async () => {
      const [multi, clip] = await Promise.all([
        probes(() => extractor.probe(platform.watchUrl(FIXTURE_VIDEOS.multi.id), { includeAudioTracks: true })),
        probes(() => extractor.probe(platform.watchUrl(FIXTURE_VIDEOS.clip.id), { includeAudioTracks: true })),
      ]);
      assert.deepEqual(
        multi.audioTracks,
        FIXTURE_VIDEOS.multi.audioTracks.map(({ type, language }) => ({ type, language })),
      );
      assert.equal(multi.duration, FIXTURE_VIDEOS.multi.duration);
      assert.deepEqual(clip.audioTracks, [{ type: 'original', language: null }]);
    });

    it("maps every refusal of the platform's extractor, and a missing page, to its code", async () => {
      const cases = [
        ...Object.entries(FIXTURE_REFUSALS).map(([kind, refusal]) => [`${kind}-x1`, refusal.expectedCode] as const),
        [FIXTURE_MISSING_VIDEO_ID, 'VIDEO_NOT_FOUND'] as const,
      ];
      await Promise.all(
        cases.map(([id, code]) => probes(() => expectCode(extractor.probe(platform.watchUrl(id)), code, id))),
      );
    });

    it('words the reason for the client, and keeps yt-dlp’s own words for the log', async () => {
      await assert.rejects(
        probes(() => extractor.probe(platform.watchUrl('private-x2'))),
        (error: unknown) => {
          assert.ok(error instanceof ExtractionError);
          assert.equal(error.message, 'The video is private');
          assert.match(error.details ?? '', /ERROR: \[fixtureplatform\] private-x2: Private video/);
          return true;
        },
      );
    });
  });

  describe('download: audio', () => {
    it('audio: the best audio, taken out of the MP4 without re-encoding', async () => {
      const { media, probe } = await downloaded('audio');
      assert.deepEqual([media.actualFormat, media.extension, media.mimeType], ['audio', 'm4a', 'audio/mp4']);
      assert.deepEqual(streamSummary(probe), [['audio', 'aac', 44100, 1]]);
      assert.ok(Math.abs((probe.streams[0].bitRate ?? 0) - 96_000) < 8_000, 'the source bitrate, not a new encode');
      assert.ok(Math.abs((probe.duration ?? 0) - 6) < 0.2);
      assert.ok(media.filePath.startsWith(root + path.sep), 'inside the work directory');
      assert.equal((await readdir(path.dirname(media.filePath))).length, 1, 'only the result is left behind');
    });

    it('audio: WebM/Opus stays in the container the platform served', async () => {
      const { media, probe } = await downloaded('audioOpus');
      assert.deepEqual([media.actualFormat, media.extension, media.mimeType], ['audio', 'webm', 'audio/webm']);
      assert.deepEqual(streamSummary(probe), [['audio', 'opus', 48000, 1]]);
    });

    it('audio-aac: AAC in M4A where the platform has it', async () => {
      const { media, probe } = await downloaded('aac');
      assert.deepEqual([media.actualFormat, media.extension], ['audio-aac', 'm4a']);
      assert.deepEqual(streamSummary(probe), [['audio', 'aac', 44100, 1]]);
    });

    it('audio-aac: the best audio, reported as audio, where there is no AAC', async () => {
      const { media, probe } = await downloaded('aacWithoutAac');
      assert.deepEqual([media.actualFormat, media.extension], ['audio', 'webm']);
      assert.deepEqual(streamSummary(probe), [['audio', 'opus', 48000, 1]]);
    });

    it('audio-mp3: 320 kb/s constant bitrate, the source sample rate and channel count kept', async () => {
      const [mono, stereo] = await Promise.all([downloaded('mp3'), downloaded('mp3Stereo')]);
      assert.deepEqual(
        [mono.media.actualFormat, mono.media.extension, mono.media.mimeType],
        ['audio-mp3', 'mp3', 'audio/mpeg'],
      );
      assert.deepEqual(streamSummary(mono.probe), [['audio', 'mp3', 44100, 1]]);
      assert.deepEqual(
        streamSummary(stereo.probe),
        [['audio', 'mp3', 48000, 2]],
        'the original track of the HLS video: 48 kHz stereo',
      );
      for (const { probe } of [mono, stereo]) {
        assert.equal(probe.streams[0].bitRate, 320_000);
        assert.equal(
          probe.bitRate !== null && Math.abs(probe.bitRate - 320_000) < 2_000,
          true,
          `CBR: the file's rate is the stream's (${probe.bitRate})`,
        );
      }
    });

    it('reports progress as it goes', async () => {
      const { media, progress } = await downloaded('audio');
      assert.ok(progress.length > 0);
      assert.deepEqual(
        progress,
        [...progress].sort((a, b) => a - b),
        'never goes back',
      );
      assert.ok(progress[progress.length - 1] > 0);
      assert.ok(media.fileSize > 0);
    });
  });

  describe('download: video', () => {
    it('merges the tallest video within the height with the original audio into an MP4', async () => {
      const { media, probe } = await downloaded('hls720');
      assert.deepEqual([media.actualFormat, media.extension, media.mimeType], ['720', 'mp4', 'video/mp4']);
      assert.match(probe.container, /mp4/);
      assert.deepEqual(streamSummary(probe), [
        ['video', 'h264', 1280, 720],
        ['audio', 'aac', 48000, 2],
      ]);
    });

    it('delivers the tallest there is when the platform has less than asked, and says so', async () => {
      const { media, probe } = await downloaded('hls1080');
      assert.equal(media.actualFormat, '720');
      assert.equal(videoStream(probe).height, 720);
    });

    it('remuxes a progressive MP4 at its own height', async () => {
      const { media, probe } = await downloaded('progressive360');
      assert.deepEqual([media.actualFormat, media.extension], ['360', 'mp4']);
      assert.deepEqual(streamSummary(probe), [
        ['video', 'h264', 640, 360],
        ['audio', 'aac', 44100, 1],
      ]);
    });

    it('caps the height down when the estimate exceeds the size limit', async () => {
      // 720p is declared at 1.6 Mb/s (1.2 MB for 6 s), 480p at 0.8 Mb/s (0.6 MB).
      const { media, probe } = await downloaded('capped');
      assert.equal(media.actualFormat, '480');
      assert.equal(videoStream(probe).height, 480);
      assert.equal((await readdir(path.dirname(media.filePath))).filter((name) => !name.startsWith('.')).length, 1);
    });

    it('estimates a clip by its share: 4 s of 720p fits the same limit', async () => {
      const { media, probe } = await downloaded('cappedClipFits');
      assert.equal(media.actualFormat, '720');
      assert.ok(Math.abs((probe.duration ?? 0) - 4) < 0.2, `duration ${probe.duration}`);
    });
  });

  describe('download: language', () => {
    it('takes the requested language by prefix (de matches de-DE)', async () => {
      const { probe } = await downloaded('german');
      assert.deepEqual(streamSummary(probe), [['audio', 'aac', 44100, 1]], 'the German dub is 44.1 kHz mono');
    });

    it('merges the requested language into a video', async () => {
      const { media, probe } = await downloaded('germanVideo');
      assert.equal(media.actualFormat, '360');
      assert.deepEqual(streamSummary(probe)[1], ['audio', 'aac', 44100, 1]);
    });

    it('falls back to the original when the language is not offered', async () => {
      const { media, probe } = await downloaded('spanishFallsBack');
      assert.equal(media.actualFormat, 'audio-aac');
      assert.deepEqual(streamSummary(probe), [['audio', 'aac', 48000, 2]], 'the English original is 48 kHz stereo');
    });

    it('takes the original, not the default dub, when no language is asked for', async () => {
      const { probe } = await downloaded('noLanguageIsOriginal');
      assert.deepEqual(streamSummary(probe), [['audio', 'aac', 48000, 2]]);
    });
  });

  describe('download: clipping', () => {
    it('cuts [start, end) out of the audio before encoding it', async () => {
      const { media, probe } = await downloaded('clippedMp3');
      assert.equal(media.extension, 'mp3');
      assert.ok(Math.abs((probe.duration ?? 0) - 3) < 0.15, `duration ${probe.duration}`);
    });

    it('cuts [start, end) out of a merged video', async () => {
      const { media, probe } = await downloaded('clippedVideo');
      assert.equal(media.actualFormat, '480');
      assert.ok(Math.abs((probe.duration ?? 0) - 3) < 0.15, `duration ${probe.duration}`);
    });

    it('runs to the end when only the start is given', async () => {
      const { probe } = await downloaded('clippedToEnd');
      assert.ok(Math.abs((probe.duration ?? 0) - 4) < 0.15, `duration ${probe.duration}`);
    });
  });

  describe('download: failures', () => {
    it('reports media that fails with HTTP 500, 404 or a reset connection as NETWORK_ERROR', async () => {
      const failing = ['broken', 'missing', 'reset'] as const;
      await Promise.all(
        failing.map((key) =>
          limit(async () =>
            expectCode(
              extractor.download({
                url: platform.watchUrl(FIXTURE_VIDEOS[key].id),
                format: 'audio',
                workDir: await workDir(key),
              }),
              'NETWORK_ERROR',
              key,
            ),
          ),
        ),
      );
    });

    it('refuses a stream in progress instead of recording it, with or without a size limit', async () => {
      await Promise.all(
        [{ format: 'audio' as const }, { format: '720' as const, maxFileSizeBytes: 10_000_000 }].map((request) =>
          limit(async () =>
            expectCode(
              extractor.download({
                ...request,
                url: platform.liveUrl(FIXTURE_LIVE.id),
                workDir: await workDir('live'),
              }),
              'LIVE_STREAM_IN_PROGRESS',
              request.format,
            ),
          ),
        ),
      );
    });

    it("reports the platform's refusal on download too", async () => {
      await limit(async () =>
        expectCode(
          extractor.download({
            url: platform.watchUrl('members-x3'),
            format: '720',
            workDir: await workDir('members'),
          }),
          'MEMBERS_ONLY',
          'members',
        ),
      );
    });

    it('stops yt-dlp and the ffmpeg it started when aborted', async function () {
      this.timeout(180_000);
      if (!(await isDirectory('/proc'))) this.skip();
      const controller = new AbortController();
      const dir = await workDir('aborted');
      // A cut section of slow media: ffmpeg, started by yt-dlp, is busy fetching it.
      const run = extractor.download({
        url: platform.watchUrl(FIXTURE_VIDEOS.slow.id),
        format: 'audio',
        startTime: 0,
        endTime: 5,
        workDir: dir,
        signal: controller.signal,
      });
      let outcome = 'still running';
      run.then(
        () => (outcome = 'finished'),
        (error: unknown) => (outcome = `failed: ${error instanceof Error ? error.message : String(error)}`),
      );
      // Generous: on a loaded machine yt-dlp's start and its first fetch of the slow media take a while. The ffmpeg
      // sought is the one fetching (`-i`): yt-dlp also runs ffmpeg briefly to ask its version and features.
      const fetching = async () => (await processesWorkingIn(dir, ['-i'])).includes('ffmpeg');
      const deadline = Date.now() + 120_000;
      let seen = false;
      while (!seen && outcome === 'still running' && Date.now() < deadline) {
        seen = await fetching();
        if (!seen) await sleep(25);
      }
      assert.ok(
        seen && outcome === 'still running',
        `ffmpeg fetching (the download: ${outcome}; working in its directory: ${(await processesWorkingIn(dir)).join(', ') || 'nothing'})`,
      );
      controller.abort(new Error('lease lost'));
      await assert.rejects(run, /lease lost/);
      // Killed processes leave the table when they are reaped, which a busy machine may take a moment to do.
      const gone = Date.now() + 15_000;
      while ((await processesWorkingIn(dir)).length > 0 && Date.now() < gone) await sleep(50);
      assert.deepEqual(await processesWorkingIn(dir), []);
    });

    it('says which program could not be started', async () => {
      const broken = new YtDlpExtractor({ ytDlpPath: path.join(root, 'no-such-yt-dlp'), ffmpegPath: FFMPEG });
      await assert.rejects(broken.probe(platform.watchUrl(FIXTURE_VIDEOS.clip.id)), (error: unknown) => {
        assert.ok(error instanceof ExtractionError);
        assert.equal(error.code, null);
        assert.match(error.details ?? '', /ENOENT/);
        return true;
      });
    });
  });
});

/** [type, codec, width, height] for video, [type, codec, sample rate, channels] for audio. */
function streamSummary(probe: MediaProbe): Array<[MediaStream['type'], string | null, number | null, number | null]> {
  return probe.streams.map((stream) =>
    stream.type === 'video'
      ? [stream.type, stream.codec, stream.width, stream.height]
      : [stream.type, stream.codec, stream.sampleRate, stream.channels],
  );
}

function videoStream(probe: MediaProbe): MediaStream {
  const stream = probe.streams.find((candidate) => candidate.type === 'video');
  assert.ok(stream !== undefined, 'a video stream');
  return stream;
}

/** Names of the processes whose working directory is `dir` (Linux /proc), of those with every argument in `withArguments`. */
async function processesWorkingIn(dir: string, withArguments: string[] = []): Promise<string[]> {
  const names: string[] = [];
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    try {
      if ((await readlink(`/proc/${pid}/cwd`)) !== dir) continue;
      const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      if (withArguments.every((argument) => args.includes(argument)))
        names.push((await readFile(`/proc/${pid}/comm`, 'utf8')).trim());
    } catch {
      // Gone meanwhile, or not ours to look at.
    }
  }
  return names;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
