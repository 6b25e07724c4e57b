import assert from 'node:assert/strict';
import { ExtractionError } from '../../../../application/ports/extractor/extraction-error.js';
import { YtDlpExtractor } from '../../../../infrastructure/extractor/yt-dlp-extractor.js';
import { installedYtDlpPath } from '../../../../infrastructure/config/config.js';
import {
  FIXTURE_BIG_CHANNEL,
  FIXTURE_CHANNEL,
  FIXTURE_DUBBED,
  FIXTURE_MISSING_CHANNEL_HANDLE,
  FIXTURE_VIDEOS,
  type FixturePlatform,
  startFixturePlatform,
} from '../../../fixtures/platform/fixture-platform.js';
import { FIXTURE_EXTRACTOR_OPTIONS } from '../../../fixtures/platform/extractor-plugin.js';

const YT_DLP = process.env.YT_DLP_PATH ?? installedYtDlpPath();
const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';

describe('YtDlpExtractor lookups against the fixture platform', function () {
  this.timeout(60_000);
  let platform: FixturePlatform;
  let extractor: YtDlpExtractor;

  before(async () => {
    platform = await startFixturePlatform({ ffmpegPath: FFMPEG });
    extractor = new YtDlpExtractor({
      ytDlpPath: YT_DLP,
      ffmpegPath: FFMPEG,
      pythonPath: platform.pluginPath,
      extraArgs: FIXTURE_EXTRACTOR_OPTIONS,
    });
  });
  after(async () => platform?.stop());

  it('lists the audio tracks of a dubbed video from its formats, the original first', async () => {
    const video = await extractor.probe(platform.watchUrl(FIXTURE_DUBBED.id), { includeAudioTracks: true });
    assert.deepEqual(video.audioTracks, FIXTURE_DUBBED.expectedAudio);
  });

  it('lists a channel flat, newest first, up to maxVideos', async () => {
    const listing = await extractor.listChannel(platform.pageUrl(`/${FIXTURE_BIG_CHANNEL.handle}`), { maxVideos: 21 });
    assert.equal(listing.entries.length, 21);
    assert.deepEqual(
      listing.entries.slice(0, 2).map((entry) => entry.id),
      FIXTURE_BIG_CHANNEL.videos.slice(0, 2).map((video) => video.id),
    );
    assert.equal(listing.channel_id, FIXTURE_BIG_CHANNEL.id);
    const small = await extractor.listChannel(platform.pageUrl(`/channel/${FIXTURE_CHANNEL.id}/videos`), {
      maxVideos: 1000,
    });
    assert.equal(small.entries.length, FIXTURE_CHANNEL.videos.length);
  });

  it('reports a channel that does not exist as VIDEO_NOT_FOUND', async () => {
    await assert.rejects(
      extractor.listChannel(platform.pageUrl(`/${FIXTURE_MISSING_CHANNEL_HANDLE}`), { maxVideos: 5 }),
      (error: unknown) => {
        assert.ok(error instanceof ExtractionError);
        assert.equal(error.code, 'VIDEO_NOT_FOUND');
        // The platform's own words stay in the details, for the operator's log; the message is the service's.
        assert.match(error.details ?? '', /This channel does not exist\./);
        assert.match(error.message, /was not found/);
        return true;
      },
    );
  });

  it('resolves the direct links of a post, best first, and fails one that is not there', async () => {
    const links = await extractor.resolveMediaLinks(
      platform.pageUrl(`/@fixturechannel/video/${FIXTURE_VIDEOS.clip.id}`),
    );
    assert.deepEqual(
      links.links.map((link) => link.type),
      ['video', 'audio'],
    );
    assert.equal(links.title, FIXTURE_VIDEOS.clip.title);
    await assert.rejects(
      extractor.resolveMediaLinks(platform.pageUrl('/tv/nosuchpost')),
      (error: unknown) => error instanceof ExtractionError && error.code === 'VIDEO_UNAVAILABLE',
    );
  });

  it('refuses a stream in progress', async () => {
    await assert.rejects(
      extractor.resolveMediaLinks(platform.liveUrl('live-x1')),
      (error: unknown) => error instanceof ExtractionError && error.code === 'LIVE_STREAM_IN_PROGRESS',
    );
  });
});
