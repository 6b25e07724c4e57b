import assert from 'node:assert/strict';
import { buildDownloadArguments, formatSelector } from '../../../infrastructure/extractor/build-download-arguments.js';
import { chooseHeightWithinSize } from '../../../infrastructure/extractor/choose-height-within-size.js';

describe('yt-dlp download arguments', () => {
  const base = { url: 'https://www.youtube.com/watch?v=-rf', outputTemplate: '/w/media.%(ext)s', ffmpegPath: '/usr/bin/ffmpeg' };

  it('puts the URL last, after --, so it is never read as an option', () => {
    const args = buildDownloadArguments({ ...base, format: 'audio' });
    assert.deepEqual(args.slice(-2), ['--', 'https://www.youtube.com/watch?v=-rf']);
  });

  it('selects video by height with unknown heights allowed, merging to MP4', () => {
    assert.equal(formatSelector('720', undefined), 'bv*[height<=?720]+ba[format_note*=original]/bv*[height<=?720]+ba/b[height<=?720]');
    const args = buildDownloadArguments({ ...base, format: '1080', maxHeight: 480 });
    assert.ok(args.includes('bv*[height<=?480]+ba[format_note*=original]/bv*[height<=?480]+ba/b[height<=?480]'));
    assert.ok(args.join(' ').includes('--merge-output-format mp4'));
  });

  it('prefers the requested language by prefix, then the original track', () => {
    assert.equal(formatSelector('audio', 'en'), 'ba[language^=en]/ba[format_note*=original]/ba/b');
    assert.equal(formatSelector('audio-aac', undefined), 'ba[ext=m4a]/ba[acodec^=mp4a]/ba[format_note*=original]/ba/b');
  });

  it('encodes MP3 at a constant 320 kb/s with the most thorough analysis, without resampling', () => {
    const args = buildDownloadArguments({ ...base, format: 'audio-mp3' }).join(' ');
    assert.match(args, /-x --audio-format mp3 --audio-quality 320K --postprocessor-args ExtractAudio:-compression_level 0/);
    assert.doesNotMatch(args, /-ar |-ac /);
  });

  it('copies audio out of its container for audio and audio-aac', () => {
    assert.match(buildDownloadArguments({ ...base, format: 'audio' }).join(' '), /-x --audio-format best/);
  });

  it('clips with download sections cut at keyframes', () => {
    assert.match(buildDownloadArguments({ ...base, format: 'audio', startTime: 3 }).join(' '), /--download-sections \*3-inf --force-keyframes-at-cuts/);
    assert.match(buildDownloadArguments({ ...base, format: 'audio', startTime: 1, endTime: 4 }).join(' '), /\*1-4/);
  });

  it('caps the height down until the estimated size fits', () => {
    const info = {
      duration: 600,
      formats: [
        { vcodec: 'avc1', acodec: 'none', height: 1080, filesize: 900_000_000 },
        { vcodec: 'avc1', acodec: 'none', height: 720, filesize: 400_000_000 },
        { vcodec: 'avc1', acodec: 'none', height: 480, tbr: 1000 },
        { vcodec: 'none', acodec: 'mp4a', filesize: 10_000_000 },
      ],
    };
    assert.equal(chooseHeightWithinSize(info, 1080, 1_000_000_000, 600), 1080);
    assert.equal(chooseHeightWithinSize(info, 1080, 500_000_000, 600), 720);
    assert.equal(chooseHeightWithinSize(info, 1080, 100_000_000, 600), 480);
    assert.equal(chooseHeightWithinSize(info, 1080, 500_000_000, 60), 1080, 'a short clip of a long video fits');
    assert.equal(chooseHeightWithinSize(info, 720, 1, 600), 360, 'nothing fits: the lowest height');
  });
});
