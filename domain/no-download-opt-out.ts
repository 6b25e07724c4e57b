/**
 * Creators opt out of downloads with a tag; no extractor reports it, so the
 * video's tags are read: `nodownload`, `no-download`, `no_download` or
 * `#nodownload`, in any case.
 */
export function hasNoDownloadOptOut(tags: readonly string[]): boolean {
  return tags.some(
    (tag) =>
      tag
        .toLowerCase()
        .replace(/^#/, '')
        .replace(/[\s_-]/g, '') === 'nodownload',
  );
}
