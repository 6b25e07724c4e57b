import type { MediaLink, MediaLinks } from '../../application/ports/extractor/media-link-resolver.js';
import { withoutSmuggledData } from './parse-channel-listing.js';
import type { YtDlpFormat, YtDlpInfo } from './parse-video-metadata.js';

/** The parts of a format and a video that links need beyond what metadata parsing reads. */
export interface YtDlpLinkFormat extends YtDlpFormat {
  url?: string;
  protocol?: string;
  /** Audio bitrate, kbit/s. */
  abr?: number | null;
}

export interface YtDlpLinkInfo extends YtDlpInfo, YtDlpLinkFormat {
  formats?: YtDlpLinkFormat[] | null;
  description?: string | null;
  uploader?: string | null;
  channel?: string | null;
  uploader_url?: string | null;
  channel_url?: string | null;
  thumbnail?: string | null;
}

/** Protocols whose URL is the media itself; manifests (HLS, DASH) need a player and are left out. */
const DIRECT_PROTOCOLS = new Set(['http', 'https']);

/**
 * Direct links from yt-dlp's `-J` output, best first: video before audio;
 * videos by height, then muxed audio, then size; audio by bitrate, then size.
 * A codec yt-dlp does not know (the generic extractor's direct files) counts
 * as present, so a plain media file is a video with sound.
 */
export function parseClientLinks(info: YtDlpLinkInfo): MediaLinks {
  const formats = info.formats ?? [info];
  const links = formats.flatMap((format) => {
    const link = toLink(format);
    return link === null ? [] : [link];
  });
  const result: MediaLinks = {
    title: String(info.fulltitle ?? info.title ?? ''),
    duration:
      typeof info.duration === 'number' && Number.isFinite(info.duration) && info.duration > 0 ? info.duration : 0,
    links: dedupe(links).sort(bestFirst),
  };
  const author = nonEmpty(info.uploader) ?? nonEmpty(info.channel);
  const authorUrl = nonEmpty(info.uploader_url) ?? nonEmpty(info.channel_url);
  const description = nonEmpty(info.description);
  const thumbnail = nonEmpty(info.thumbnail);
  if (description !== undefined) result.description = description;
  if (author !== undefined) result.author = author;
  if (authorUrl !== undefined) result.authorUrl = authorUrl;
  if (thumbnail !== undefined && isHttpUrl(thumbnail)) result.thumbnailUrl = thumbnail;
  return result;
}

function toLink(format: YtDlpLinkFormat): MediaLink | null {
  if (typeof format.url !== 'string' || !isHttpUrl(format.url)) return null;
  if (format.protocol !== undefined && !DIRECT_PROTOCOLS.has(format.protocol)) return null;
  const hasVideo = format.vcodec !== 'none';
  const hasAudio = format.acodec !== 'none';
  if (!hasVideo && !hasAudio) return null;
  const url = withoutSmuggledData(format.url);
  const sizeBytes = positiveInteger(format.filesize) ?? positiveInteger(format.filesize_approx);
  const link: MediaLink = hasVideo ? { url, type: 'video', hasAudio } : { url, type: 'audio', hasAudio: true };
  if (hasVideo) {
    const width = positiveInteger(format.width);
    const height = positiveInteger(format.height);
    if (width !== undefined) link.width = width;
    if (height !== undefined) link.height = height;
  } else {
    const bitrate = positiveInteger(format.abr) ?? positiveInteger(format.tbr);
    if (bitrate !== undefined) link.audioBitrate = bitrate;
  }
  if (sizeBytes !== undefined) link.sizeBytes = sizeBytes;
  return link;
}

function bestFirst(a: MediaLink, b: MediaLink): number {
  if (a.type !== b.type) return a.type === 'video' ? -1 : 1;
  if (a.type === 'video') {
    return (
      (b.height ?? 0) - (a.height ?? 0) ||
      Number(b.hasAudio) - Number(a.hasAudio) ||
      (b.sizeBytes ?? 0) - (a.sizeBytes ?? 0)
    );
  }
  return (b.audioBitrate ?? 0) - (a.audioBitrate ?? 0) || (b.sizeBytes ?? 0) - (a.sizeBytes ?? 0);
}

function dedupe(links: MediaLink[]): MediaLink[] {
  const seen = new Set<string>();
  return links.filter((link) => {
    if (seen.has(link.url)) return false;
    seen.add(link.url);
    return true;
  });
}

function positiveInteger(value: number | null | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : undefined;
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function isHttpUrl(value: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(value);
}
