import type { DownloadErrorCode } from '../../domain/download-error-code.js';
import { clientMessage } from './client-message.js';

type Needle = string | RegExp;

/**
 * yt-dlp's failure text mapped to the spec's codes by case-insensitive substrings of the reason, never by the
 * `[extractor]` name or exact wording, which both vary. The first match wins, so the order decides:
 * - bot checks and rate limits first: they are about this server's standing, not the video, and clear with time;
 * - private, members-only and payment before the age rule, since their messages also say "Sign in"; a post kept to
 *   an account's followers, or one the viewer has no permission for, is private to the client, not an age rule;
 * - copyright before geo restriction, since a copyright block may name the country;
 * - only the watch page's 404 means no such video: a media 403/404 is an expired or throttled URL, retried with a
 *   fresh extraction (NETWORK_ERROR once attempts run out); "Unsupported URL" is a page holding no video yt-dlp can
 *   find, on a configured host too, so VIDEO_NOT_FOUND, as is "No suitable extractor found", its words when
 *   YT_DLP_EXTRACTORS leaves out every extractor that would take the URL.
 * Anything unmatched is null, which callers retry.
 */
const RULES: ReadonlyArray<readonly [DownloadErrorCode, readonly Needle[]]> = [
  [
    'NETWORK_ERROR',
    [
      'not a bot',
      'rate-limited',
      'rate limited',
      "isn't available, try again later",
      'http error 429',
      'too many requests',
      'captcha',
    ],
  ],
  // The egress rule refused an address the link led to: policy, not a passing fault, so retrying gives the same answer.
  ['VIDEO_UNAVAILABLE', ['forbidden by the egress rule']],
  [
    'PRIVATE_VIDEO',
    ['private video', 'video is private', 'registered users who follow', 'do not have permission to view this post'],
  ],
  ['MEMBERS_ONLY', ['members-only', 'members only', "channel's members", 'join this channel']],
  [
    'PAYMENT_REQUIRED',
    [
      'requires payment',
      'purchase',
      'rent this video',
      'rental',
      'premium members',
      'youtube premium',
      'music premium',
    ],
  ],
  [
    'VIDEO_PREMIERE',
    ['premieres in', 'premiere will begin', 'live event will begin', 'scheduled to start', 'waiting for scheduled'],
  ],
  // Before the format rule: the stream has no formats from its start only while it is still live.
  ['LIVE_STREAM_IN_PROGRESS', ['--live-from-start is passed, but there are no formats']],
  ['COPYRIGHTED_MUSIC', ['copyright grounds', 'copyright claim', 'copyright infringement', 'copyrighted']],
  [
    'GEO_RESTRICTED',
    [
      'available in your country',
      'in your country',
      'geo restrict',
      'geo-restrict',
      'georestrict',
      'from your location',
      'in your region',
    ],
  ],
  [
    'AGE_RESTRICTED',
    [
      'confirm your age',
      'age-restricted',
      'age restricted',
      'inappropriate for some users',
      'age verification',
      /\bsign in\b/,
      /\blog ?in\b/,
      'available for registered users',
      'requires authentication',
    ],
  ],
  ['DRM_PROTECTED', [/\bdrm\b/]],
  [
    'VIDEO_PROCESSING',
    ['being processed', 'still processing', 'is processing', 'processing will begin', 'processing this video'],
  ],
  [
    'FORMAT_UNAVAILABLE',
    [
      'requested format is not available',
      'requested format not available',
      'no video formats found',
      'no formats found',
    ],
  ],
  [
    'VIDEO_NOT_FOUND',
    [
      /unable to download webpage: http error (404|410)\b/,
      'does not exist',
      'has been removed',
      'been terminated',
      'no longer available',
      "isn't available anymore",
      'video not found',
      'incomplete youtube id',
      'looks truncated',
      'unsupported url',
      'no suitable extractor found',
    ],
  ],
  ['VIDEO_UNAVAILABLE', ['video unavailable', 'video is unavailable', "content isn't available", 'not available']],
  [
    'NETWORK_ERROR',
    [
      'http error',
      'timed out',
      'timeout',
      'connection reset',
      'connection refused',
      'connection aborted',
      'remote end closed',
      'remotedisconnected',
      'broken pipe',
      'name resolution',
      'name or service not known',
      'nodename nor servname',
      'getaddrinfo',
      'network is unreachable',
      'no route to host',
      'unable to download webpage',
      'unable to download video data',
      'unable to download json',
      'unable to connect',
      'urlopen error',
      'incompleteread',
      'incomplete read',
      'content too short',
      'did not get any data blocks',
      'giving up after',
      /fragment \d+ not found/,
      /\bssl\b/,
      /\bproxy\b/,
    ],
  ],
];

export interface ClassifiedError {
  code: DownloadErrorCode | null;
  /** What happened in the service's words (see clientMessage): safe to show; yt-dlp's own text is for the log. */
  message: string;
}

export function classifyYtDlpError(stderr: string): ClassifiedError {
  const lines = stderr.split(/\r?\n/).filter((line) => line.trim() !== '');
  const firstError = lines.findIndex((line) => line.startsWith('ERROR:'));
  // An error's explanation can span lines (geo restriction names the countries); warnings are not errors.
  const relevant =
    firstError === -1
      ? lines.slice(-20).filter((line) => !line.startsWith('WARNING:'))
      : lines.slice(firstError).filter((line) => !line.startsWith('WARNING:'));
  const haystack = normalise(relevant.join('\n'));
  const code = classify(haystack);
  return { code, message: clientMessage(code, haystack) };
}

function classify(haystack: string): DownloadErrorCode | null {
  for (const [code, needles] of RULES) {
    if (needles.some((needle) => (typeof needle === 'string' ? haystack.includes(needle) : needle.test(haystack))))
      return code;
  }
  return null;
}

/** Lower case, with typographic apostrophes made plain: the platform uses both. */
function normalise(text: string): string {
  return text.toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'");
}
