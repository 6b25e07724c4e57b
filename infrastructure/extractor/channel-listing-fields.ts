/**
 * What a channel listing may show clients beyond the contract's properties
 * (which parseChannelListing sets itself): a documented allow list. Everything
 * else yt-dlp prints (its version, git head, extractor names, the original
 * URL, request headers, whatever a future version adds) stays inside the service.
 */
export const LISTING_EXTRA_FIELDS = [
  'uploader',
  'uploader_id',
  'uploader_url',
  'description',
  'tags',
  'channel_follower_count',
  'channel_is_verified',
  'playlist_count',
  'view_count',
  'availability',
  'modified_date',
  'webpage_url',
  'thumbnails',
] as const;

export const ENTRY_FIELDS = ['id', 'title', 'url', 'duration', 'view_count', 'uploader'] as const;
export const ENTRY_EXTRA_FIELDS = [
  'channel',
  'channel_id',
  'channel_url',
  'channel_is_verified',
  'uploader_id',
  'uploader_url',
  'description',
  'live_status',
  'availability',
  'timestamp',
  'release_timestamp',
  'upload_date',
  'thumbnails',
] as const;

/** Thumbnails keep their address and size only. */
const THUMBNAIL_FIELDS = ['url', 'width', 'height'] as const;

/** The allowed properties of `value`, thumbnails reduced to their own allowed fields. */
export function allowedFields(value: Record<string, unknown>, allowed: readonly string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of allowed) {
    if (!Object.hasOwn(value, key)) continue;
    kept[key] = key === 'thumbnails' ? thumbnails(value[key]) : value[key];
  }
  return kept;
}

function thumbnails(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (item): item is Record<string, unknown> =>
        typeof item === 'object' && item !== null && typeof (item as { url?: unknown }).url === 'string',
    )
    .map((item) => allowedFields(item, THUMBNAIL_FIELDS));
}
