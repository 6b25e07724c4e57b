import assert from 'node:assert/strict';
import { chooseHeightWithinSize } from '../../../infrastructure/extractor/choose-height-within-size.js';

const MB = 1_000_000;

describe('height capping for the per-file size limit', () => {
  const info = {
    duration: 600,
    formats: [
      { vcodec: 'none', acodec: 'none', format_note: 'storyboard', filesize: 999 * MB },
      { vcodec: 'avc1', acodec: 'none', height: 1080, filesize: 900 * MB },
      { vcodec: 'avc1', acodec: 'none', height: 720, filesize_approx: 400 * MB },
      { vcodec: 'avc1', acodec: 'none', height: 480, tbr: 1000 },
      { vcodec: 'avc1', acodec: 'none', height: 360, tbr: 500 },
      { vcodec: 'none', acodec: 'mp4a.40.2', filesize: 10 * MB },
    ],
  };

  it('keeps the requested height when it fits, or when there is no limit', () => {
    assert.equal(chooseHeightWithinSize(info, 1080, 1000 * MB, null), 1080);
    assert.equal(chooseHeightWithinSize(info, 1080, undefined, null), 1080);
  });

  it('steps down named heights until video plus audio fits, using size, approximate size or bitrate x duration', () => {
    assert.equal(chooseHeightWithinSize(info, 1080, 500 * MB, null), 720);
    assert.equal(
      chooseHeightWithinSize(info, 1080, 100 * MB, null),
      480,
      '1000 kb/s x 600 s = 75 MB, plus 10 MB of audio',
    );
    assert.equal(chooseHeightWithinSize(info, 1080, 80 * MB, null), 360);
  });

  it('estimates a clip by its share of the video', () => {
    assert.equal(chooseHeightWithinSize(info, 1080, 500 * MB, 60), 1080, 'a tenth of 910 MB fits');
  });

  it('gives the lowest named height when nothing fits', () => {
    assert.equal(chooseHeightWithinSize(info, 720, 1, null), 360);
  });

  it('counts no extra audio for muxed formats, and keeps a height whose size cannot be estimated', () => {
    const muxed = {
      duration: 100,
      formats: [
        { vcodec: 'avc1', acodec: 'mp4a', height: 720, tbr: 800 },
        { vcodec: 'none', acodec: 'opus', filesize: 50 * MB },
      ],
    };
    assert.equal(chooseHeightWithinSize(muxed, 720, 10 * MB, null), 720, '800 kb/s x 100 s = 10 MB');
    assert.equal(
      chooseHeightWithinSize({ formats: [{ vcodec: 'avc1', acodec: 'none', height: 720 }] }, 720, 1, null),
      720,
    );
  });

  it('counts formats of unknown height at every height', () => {
    assert.equal(
      chooseHeightWithinSize(
        { duration: 10, formats: [{ vcodec: null, acodec: null, filesize: 5 * MB }] },
        1080,
        1 * MB,
        null,
      ),
      360,
    );
  });
});
