import { type MediaFormat, isVideoFormat } from '../../domain/media-format.js';

export interface DownloadArgumentsInput {
  url: string;
  format: MediaFormat;
  /** For video formats: the height cap chosen after size capping. */
  maxHeight?: number;
  startTime?: number;
  endTime?: number;
  language?: string;
  /** Output template inside the job's work directory. */
  outputTemplate: string;
  ffmpegPath: string;
}

/** Audio preference: the requested language (prefix match), then the original track, then whatever is best. */
function audioSelector(language: string | undefined): string[] {
  const original = ['ba[format_note*=original]'];
  return language === undefined ? [...original, 'ba'] : [`ba[language^=${language}]`, ...original, 'ba'];
}

export function formatSelector(format: MediaFormat, language: string | undefined, maxHeight?: number): string {
  const audio = audioSelector(language);
  if (isVideoFormat(format)) {
    const height = maxHeight ?? Number(format);
    // `<=?` keeps formats whose height is unknown, which a strict filter would drop.
    const video = `bv*[height<=?${height}]`;
    return [...audio.map((a) => `${video}+${a}`), `b[height<=?${height}]`].join('/');
  }
  if (format === 'audio-aac') return ['ba[ext=m4a]', 'ba[acodec^=mp4a]', ...audio, 'b'].join('/');
  return [...audio, 'b'].join('/');
}

/**
 * The yt-dlp command line for a download. The URL always comes after `--`,
 * so nothing in it can be read as an option; no shell is ever involved.
 */
export function buildDownloadArguments(input: DownloadArgumentsInput): string[] {
  const args = [
    '--ignore-config',
    '--no-playlist',
    '--no-progress',
    '--newline',
    '--ffmpeg-location',
    input.ffmpegPath,
    '-f',
    formatSelector(input.format, input.language, input.maxHeight),
    '-o',
    input.outputTemplate,
    '--print',
    'after_move:filepath',
    '--no-simulate',
  ];
  if (isVideoFormat(input.format)) {
    args.push('--merge-output-format', 'mp4', '--remux-video', 'mp4');
  } else if (input.format === 'audio-mp3') {
    // Quality above 10 means a bitrate: constant 320 kb/s; compression level 0 is LAME's most thorough analysis. No -ar/-ac: rate and channels are kept.
    args.push('-x', '--audio-format', 'mp3', '--audio-quality', '320K', '--postprocessor-args', 'ExtractAudio:-compression_level 0');
  } else {
    // "best" copies the audio stream out of its container without re-encoding.
    args.push('-x', '--audio-format', 'best');
  }
  if (input.startTime !== undefined || input.endTime !== undefined) {
    args.push('--download-sections', `*${input.startTime ?? 0}-${input.endTime ?? 'inf'}`, '--force-keyframes-at-cuts');
  }
  args.push('--', input.url);
  return args;
}
