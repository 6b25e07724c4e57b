export const DOWNLOAD_ERROR_CODES = [
  'AGE_RESTRICTED',
  'MEMBERS_ONLY',
  'PAYMENT_REQUIRED',
  'PRIVATE_VIDEO',
  'VIDEO_PREMIERE',
  'GEO_RESTRICTED',
  'VIDEO_PROCESSING',
  'VIDEO_UNAVAILABLE',
  'DRM_PROTECTED',
  'VIDEO_NOT_FOUND',
  'FORMAT_UNAVAILABLE',
  'LIVE_STREAM_IN_PROGRESS',
  'COPYRIGHTED_MUSIC',
  'NO_DOWNLOAD_OPT_OUT',
  'NETWORK_ERROR',
] as const;
export type DownloadErrorCode = (typeof DOWNLOAD_ERROR_CODES)[number];

/** Every code but NETWORK_ERROR describes the video or policy: retrying gives the same answer. */
export function isFinalErrorCode(code: DownloadErrorCode): boolean {
  return code !== 'NETWORK_ERROR';
}
