import { type MediaFormat, isVideoFormat } from '../../domain/media-format.js';
import { formatSelector } from './format-selector.js';

export interface DownloadArgumentsInput {
  url: string;
  format: MediaFormat;
  /** For video formats: the height cap left after size capping; default the format's height. */
  maxHeight?: number;
  /** Seconds, inclusive. */
  startTime?: number;
  /** Seconds, exclusive. */
  endTime?: number;
  language?: string;
  /** Output template, relative to the working directory yt-dlp runs in (the job's work directory). */
  outputTemplate: string;
  /** A `-J` dump of the same video to download from, instead of extracting it again. */
  infoJsonFile?: string;
}

/** Prefixes of the stdout lines the adapter asks yt-dlp for. */
export const FILE_LINE_PREFIX = '[file] ';
/** Precedes the delivered video's `width height vcodec` as yt-dlp knows them, so the file needs no probe of its own. */
export const STREAMS_LINE_PREFIX = '[streams] ';
export const PROGRESS_LINE_PREFIX = '[progress] ';

/**
 * Containers that can hold video. Audio taken from one of these is copied
 * into the audio container its codec calls for (AAC: m4a, Opus: opus), never
 * re-encoded; audio already in an audio container (m4a, webm) is left as the
 * platform served it.
 */
const VIDEO_CONTAINERS = ['mp4', 'mkv', 'mov', 'flv', '3gp', 'avi', 'ts'];

/**
 * yt-dlp's options for one download (the adapter adds the options common to
 * every run before these). The URL always comes last, after `--`, so nothing
 * in it is read as an option; the vector goes to the program as is, without a
 * shell.
 */
export function buildDownloadArguments(input: DownloadArgumentsInput): string[] {
  const args = [
    '--no-playlist',
    '--no-mtime',
    '-f',
    formatSelector(input.format, input.language, input.maxHeight),
    ...formatOptions(input.format),
    ...sectionOptions(input.startTime, input.endTime),
    '-o',
    input.outputTemplate,
    // yt-dlp has no error for a stream in progress; it would record it until it ends.
    '--break-match-filters',
    '!is_live',
    // The final path, after merging and audio extraction; --print implies --simulate and --quiet.
    '--print',
    `after_move:${FILE_LINE_PREFIX}%(filepath)s`,
    '--print',
    `after_move:${STREAMS_LINE_PREFIX}%(width)s %(height)s %(vcodec)s`,
    '--no-simulate',
    '--progress',
    '--newline',
    '--progress-template',
    `download:${PROGRESS_LINE_PREFIX}%(progress.{status,downloaded_bytes,total_bytes,total_bytes_estimate,speed,eta})j`,
  ];
  if (input.infoJsonFile !== undefined) args.push('--load-info-json', input.infoJsonFile);
  args.push('--', input.url);
  return args;
}

function formatOptions(format: MediaFormat): string[] {
  if (isVideoFormat(format)) {
    return [
      // Within the height cap: the tallest, then H.264 and AAC, which every MP4 player plays.
      '-S',
      'lang,res,vcodec:h264,acodec:aac',
      '--merge-output-format',
      'mp4',
      '--remux-video',
      'mp4',
    ];
  }
  if (format === 'audio-mp3') {
    return [
      '-x',
      '--audio-format',
      'mp3',
      // A quality above 10 is a bitrate: constant 320 kb/s. yt-dlp passes no -ar or -ac, so rate and channels stay the source's.
      '--audio-quality',
      '320K',
      // libmp3lame's most thorough psychoacoustic analysis; yt-dlp puts these after its own codec options.
      '--postprocessor-args',
      'ExtractAudio:-compression_level 0',
    ];
  }
  return ['-x', '--audio-format', VIDEO_CONTAINERS.map((container) => `${container}>best`).join('/')];
}

/**
 * `--download-sections` cuts [start, end); forcing keyframes at the cuts makes
 * them exact. A "cut" from 0 to the end is the whole video, which the usual
 * download fetches faster than ffmpeg's section download.
 */
function sectionOptions(startTime: number | undefined, endTime: number | undefined): string[] {
  if ((startTime === undefined || startTime === 0) && endTime === undefined) return [];
  return ['--download-sections', `*${startTime ?? 0}-${endTime ?? 'inf'}`, '--force-keyframes-at-cuts'];
}
