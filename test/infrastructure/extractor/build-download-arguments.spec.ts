import assert from 'node:assert/strict';
import {
  buildDownloadArguments,
  type DownloadArgumentsInput,
} from '../../../infrastructure/extractor/build-download-arguments.js';

const URL = 'https://www.youtube.com/watch?v=-rf0Wa1TbtU';

function argsFor(input: Partial<DownloadArgumentsInput> & Pick<DownloadArgumentsInput, 'format'>): string[] {
  return buildDownloadArguments({ url: URL, outputTemplate: 'media.%(ext)s', ...input });
}

/** The value following an option, or undefined when the option is absent. */
function optionValue(args: readonly string[], option: string): string | undefined {
  const index = args.indexOf(option);
  return index === -1 ? undefined : args[index + 1];
}

describe('yt-dlp download arguments', () => {
  it('ends with -- and the URL, so a URL starting with a dash is never read as an option', () => {
    const dashed = '-J --exec rm';
    for (const format of ['1080', 'audio', 'audio-aac', 'audio-mp3'] as const) {
      const args = buildDownloadArguments({ url: dashed, format, outputTemplate: 'media.%(ext)s' });
      assert.deepEqual(args.slice(-2), ['--', dashed], format);
      assert.equal(args.indexOf('--'), args.length - 2, format);
    }
  });

  it('writes to the given template (relative to the work directory the process runs in) and prints the final path', () => {
    const args = argsFor({ format: 'audio' });
    assert.equal(optionValue(args, '-o'), 'media.%(ext)s');
    assert.equal(optionValue(args, '--print'), 'after_move:[file] %(filepath)s');
    assert.ok(args.includes('--no-simulate'), '--print alone would only simulate');
    assert.ok(args.includes('--no-playlist'));
  });

  it('asks for progress lines as JSON and refuses a stream in progress', () => {
    const args = argsFor({ format: 'audio' });
    assert.ok(args.includes('--progress') && args.includes('--newline'));
    const templates = args.flatMap((arg, index) => (arg === '--progress-template' ? [args[index + 1]] : []));
    assert.deepEqual(templates, [
      'download:[progress] %(progress.{status,downloaded_bytes,total_bytes,total_bytes_estimate,speed,eta})j',
    ]);
    assert.equal(optionValue(args, '--break-match-filters'), '!is_live');
  });

  it('video: MP4 by merging or remuxing, preferring the tallest within the cap, then H.264 and AAC', () => {
    const args = argsFor({ format: '720' });
    assert.equal(
      optionValue(args, '-f'),
      'bv*[height<=?720]+ba[format_note*=original]/bv*[height<=?720]+ba/b[height<=?720]',
    );
    assert.equal(optionValue(args, '--merge-output-format'), 'mp4');
    assert.equal(optionValue(args, '--remux-video'), 'mp4');
    assert.equal(optionValue(args, '-S'), 'lang,res,vcodec:h264,acodec:aac');
    assert.ok(!args.includes('-x'));
  });

  it('video: a size cap replaces the requested height', () => {
    assert.equal(
      optionValue(argsFor({ format: '1080', maxHeight: 480 }), '-f'),
      'bv*[height<=?480]+ba[format_note*=original]/bv*[height<=?480]+ba/b[height<=?480]',
    );
  });

  it('audio and audio-aac: audio is taken out of video containers without re-encoding, audio containers are left alone', () => {
    for (const format of ['audio', 'audio-aac'] as const) {
      const args = argsFor({ format });
      assert.ok(args.includes('-x'), format);
      assert.equal(
        optionValue(args, '--audio-format'),
        'mp4>best/mkv>best/mov>best/flv>best/3gp>best/avi>best/ts>best',
        format,
      );
      assert.equal(optionValue(args, '--audio-quality'), undefined, `${format} is never transcoded`);
      assert.equal(optionValue(args, '-S'), undefined, `${format} takes yt-dlp's own idea of the best audio`);
    }
  });

  it('audio-mp3: constant 320 kb/s with compression level 0, no resampling or downmix', () => {
    const args = argsFor({ format: 'audio-mp3' });
    assert.deepEqual(args.slice(args.indexOf('-x'), args.indexOf('-x') + 7), [
      '-x',
      '--audio-format',
      'mp3',
      '--audio-quality',
      '320K',
      '--postprocessor-args',
      'ExtractAudio:-compression_level 0',
    ]);
    assert.ok(!args.some((arg) => /(^|\s)-a[rc](\s|$)/.test(arg)));
  });

  it('clips [start, end) with keyframes forced at the cuts; an open end runs to the end', () => {
    const both = argsFor({ format: 'audio', startTime: 3, endTime: 17 });
    assert.equal(optionValue(both, '--download-sections'), '*3-17');
    assert.ok(both.includes('--force-keyframes-at-cuts'));
    assert.equal(optionValue(argsFor({ format: '360', startTime: 5 }), '--download-sections'), '*5-inf');
    assert.equal(optionValue(argsFor({ format: '360', endTime: 9 }), '--download-sections'), '*0-9');
    assert.equal(optionValue(argsFor({ format: '360' }), '--download-sections'), undefined);
    assert.equal(
      optionValue(argsFor({ format: '360', startTime: 0 }), '--download-sections'),
      undefined,
      'from 0 to the end is no cut',
    );
    assert.ok(!argsFor({ format: '360' }).includes('--force-keyframes-at-cuts'));
  });

  it('downloads from a metadata dump when one is given, still naming the URL last', () => {
    const args = argsFor({ format: '720', infoJsonFile: 'jobs/42/.info.json' });
    assert.equal(optionValue(args, '--load-info-json'), 'jobs/42/.info.json');
    assert.deepEqual(args.slice(-2), ['--', URL]);
    assert.equal(optionValue(argsFor({ format: '720' }), '--load-info-json'), undefined);
  });

  it('puts the requested language into the selector', () => {
    assert.match(optionValue(argsFor({ format: 'audio', language: 'de' }), '-f') ?? '', /^ba\[language\^=de\]\//);
  });
});
