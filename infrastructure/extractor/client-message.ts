import type { DownloadErrorCode } from '../../domain/download-error-code.js';

/**
 * What a client reads about a failure yt-dlp reported, in the service's words: the platform's own text (its reason
 * phrases, its advice to sign in) and yt-dlp's advice to command-line users (cookies, "please report this issue …
 * yt-dlp -U") stay in the operator's log. `haystack` is yt-dlp's error text in lower case.
 */
export function clientMessage(code: DownloadErrorCode | null, haystack: string): string {
  if (code === 'NETWORK_ERROR') return networkMessage(haystack);
  if (code === 'VIDEO_UNAVAILABLE' && haystack.includes('forbidden by the egress rule'))
    return 'The link leads to an address this service may not reach';
  if (code === null)
    return 'The extractor failed for a reason the service does not recognise; retry after a short backoff';
  return MESSAGE_OF_CODE[code];
}

const MESSAGE_OF_CODE: Record<Exclude<DownloadErrorCode, 'NETWORK_ERROR'>, string> = {
  AGE_RESTRICTED: 'The video is age-restricted: the platform requires signing in to watch it',
  MEMBERS_ONLY: "The video is for the channel's members only",
  PAYMENT_REQUIRED: 'The video must be bought or rented on the platform',
  PRIVATE_VIDEO: 'The video is private',
  VIDEO_PREMIERE: 'The video is a premiere that has not started yet',
  GEO_RESTRICTED: 'The video is not available in the region this service downloads from',
  VIDEO_PROCESSING: 'The platform is still processing the video',
  VIDEO_UNAVAILABLE: 'The video is unavailable on the platform',
  DRM_PROTECTED: 'The video is protected by DRM',
  VIDEO_NOT_FOUND: 'The video was not found: it does not exist, was removed, or the link does not lead to one',
  FORMAT_UNAVAILABLE: 'The requested format is not available for this video',
  LIVE_STREAM_IN_PROGRESS: 'The live stream is still in progress',
  COPYRIGHTED_MUSIC: 'The video is blocked on copyright grounds',
  NO_DOWNLOAD_OPT_OUT: 'The creator has opted out of downloads',
};

const RETRY = 'retry after a short backoff';

/** A passing failure, worded for what happened: the platform reached and refusing is not the platform unreachable. */
function networkMessage(haystack: string): string {
  if (/not a bot|captcha/.test(haystack)) return 'The video platform asked this service for a bot check; retry later';
  if (/rate.limited|http error 429|too many requests|try again later/.test(haystack))
    return 'The video platform is limiting requests from this service; retry later';
  // Before the status: the egress proxy answers a failed lookup with 502 or 504, which is not the platform answering.
  if (/name resolution|name or service not known|nodename nor servname|getaddrinfo/.test(haystack))
    return `The video platform's address could not be resolved; ${RETRY}`;
  const status = /http error (\d{3})/.exec(haystack)?.[1];
  if (status !== undefined) return httpStatusMessage(Number(status));
  if (/timed out|timeout/.test(haystack)) return `The video platform did not answer in time; ${RETRY}`;
  if (/\bproxy\b/.test(haystack)) return `The proxy to the video platform failed; ${RETRY}`;
  if (/\bssl\b/.test(haystack)) return `The secure connection to the video platform failed; ${RETRY}`;
  if (/connection|remote end closed|remotedisconnected|broken pipe|unreachable|no route to host/.test(haystack))
    return `The connection to the video platform failed; ${RETRY}`;
  if (/incomplete ?read|content too short|did not get any data blocks|fragment \d+ not found/.test(haystack))
    return `The download from the video platform was cut short; ${RETRY}`;
  return `The request to the video platform failed; ${RETRY}`;
}

function httpStatusMessage(status: number): string {
  if (status === 401 || status === 403) return `The video platform refused the request (HTTP ${status}); ${RETRY}`;
  if (status >= 500) return `The video platform failed to answer (HTTP ${status}); ${RETRY}`;
  return `The video platform answered HTTP ${status}; ${RETRY}`;
}
