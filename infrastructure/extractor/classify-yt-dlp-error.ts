import type { DownloadErrorCode } from '../../domain/download-error-code.js';

/**
 * yt-dlp's error lines, mapped to the spec's codes by case-insensitive
 * substrings of the reason (never the `[extractor]` bracket, which varies).
 * Order matters: a private video's message also says "sign in", the bot check
 * says "sign in" but is an IP block (transient), and a rate-limited session
 * says "Video unavailable" but clears with time.
 */
const RULES: ReadonlyArray<readonly [DownloadErrorCode, readonly string[]]> = [
  ['NETWORK_ERROR', ['not a bot', 'session has been rate-limited', 'rate-limited by youtube', 'http error 429']],
  ['PRIVATE_VIDEO', ['private video', 'this video is private']],
  ['MEMBERS_ONLY', ['members-only', 'members only', 'join this channel']],
  ['PAYMENT_REQUIRED', ['requires payment', 'purchase this video', 'rent this video', 'this video is available for purchase']],
  ['VIDEO_PREMIERE', ['premieres in', 'premiere will begin', 'this live event will begin', 'waiting for scheduled']],
  ['AGE_RESTRICTED', ['confirm your age', 'age-restricted', 'age restricted', 'inappropriate for some users', 'sign in']],
  ['GEO_RESTRICTED', ['geo restriction', 'geo-restrict', 'not available in your country', 'available in your country', 'not available from your location']],
  ['DRM_PROTECTED', ['drm protected', 'drm-protected', ' drm']],
  ['VIDEO_PROCESSING', ['being processed', 'still processing', 'processing this video']],
  ['COPYRIGHTED_MUSIC', ['copyright grounds', 'copyright claim', 'copyrighted']],
  ['FORMAT_UNAVAILABLE', ['requested format is not available', 'requested format not available', 'no video formats found']],
  ['VIDEO_NOT_FOUND', ['does not exist', 'has been removed', 'been terminated', 'no longer available', 'http error 404', 'video not found', 'incomplete youtube id']],
  ['VIDEO_UNAVAILABLE', ['video unavailable', 'this video is unavailable', 'content isn\'t available', 'is not available']],
  [
    'NETWORK_ERROR',
    [
      'http error 5',
      'http error 403',
      'timed out',
      'timeout',
      'connection reset',
      'connection refused',
      'connection aborted',
      'remote end closed',
      'temporary failure in name resolution',
      'name or service not known',
      'unable to download webpage',
      'unable to download video data',
      'urlopen error',
      'incompleteread',
      'ffmpeg exited',
      'did not get any data blocks',
      'network is unreachable',
    ],
  ],
];

export interface ClassifiedError {
  code: DownloadErrorCode | null;
  /** The reason without the `ERROR: [extractor] id:` prefix; safe to show. */
  message: string;
}

export function classifyYtDlpError(stderr: string): ClassifiedError {
  const errorLines = stderr.split(/\r?\n/).filter((line) => line.startsWith('ERROR:'));
  const line = errorLines.at(-1) ?? stderr.trim().split(/\r?\n/).at(-1) ?? '';
  const message = line
    .replace(/^ERROR:\s*/, '')
    .replace(/^\[[^\]]+\]\s*/, '')
    .replace(/^[\w?=&.-]+:\s+/, '')
    .trim();
  const haystack = errorLines.join('\n').toLowerCase() || stderr.toLowerCase();
  for (const [code, needles] of RULES) {
    if (needles.some((needle) => haystack.includes(needle))) return { code, message: message || 'The extractor failed' };
  }
  return { code: null, message: message || 'The extractor failed' };
}
