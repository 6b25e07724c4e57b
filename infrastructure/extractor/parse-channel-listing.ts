import type { ChannelListing, ChannelListingEntry } from '../../application/ports/extractor/channel-lister.js';
import { ENTRY_EXTRA_FIELDS, ENTRY_FIELDS, LISTING_EXTRA_FIELDS, allowedFields } from './channel-listing-fields.js';

/**
 * yt-dlp's `--flat-playlist -J` output, reduced to the contract's properties
 * and the allow list of others (channel-listing-fields.ts), with the
 * contract's properties made present: where the extractor leaves one out or
 * null (channel tabs often give entries a null `uploader`, or none), it is
 * taken from the entry's or the listing's other fields. The smuggled data
 * yt-dlp appends to entry URLs (`#__youtubedl_smuggle=…`) is dropped.
 * Null when the output is not a listing.
 */
export function parseChannelListing(output: unknown, maxVideos: number): ChannelListing | null {
  if (!isObject(output) || !Array.isArray(output.entries)) return null;
  const listing = output;
  const channelId = text(listing.channel_id) ?? text(listing.id) ?? '';
  const channel = text(listing.channel) ?? text(listing.uploader) ?? text(listing.title) ?? '';
  const channelUrl = text(listing.channel_url) ?? text(listing.uploader_url) ?? text(listing.webpage_url) ?? '';
  const listingUploader = text(listing.uploader) ?? channel;
  const entries = (output.entries as unknown[])
    .filter(isObject)
    .slice(0, maxVideos)
    .map((entry): ChannelListingEntry => {
      const clean = allowedFields(entry, [...ENTRY_FIELDS, ...ENTRY_EXTRA_FIELDS]);
      const url = withoutSmuggledData(text(entry.url) ?? text(entry.webpage_url) ?? '');
      const uploader = text(clean.uploader) ?? text(clean.channel) ?? listingUploader;
      return { ...clean, id: text(clean.id) ?? '', title: text(clean.title) ?? '', url, uploader };
    });
  return {
    ...allowedFields(listing, LISTING_EXTRA_FIELDS),
    id: text(listing.id) ?? channelId,
    title: text(listing.title) ?? channel,
    channel,
    channel_id: channelId,
    channel_url: channelUrl,
    entries,
  };
}

export function withoutSmuggledData(url: string): string {
  return url.replace(/#__youtubedl_smuggle=.*$/, '');
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
