import { VIDEO_HEIGHTS } from '../../domain/media-format.js';
import type { YtDlpFormat, YtDlpInfo } from './parse-video-metadata.js';

/**
 * The highest height, at most the requested one, whose estimated file fits
 * the plan's per-file limit; the lowest height when none fits. Estimates use
 * the reported size, else the approximate size, else bitrate x duration, and
 * scale with the share of the video a clip keeps.
 */
export function chooseHeightWithinSize(info: YtDlpInfo, requestedHeight: number, maxBytes: number | undefined, clipSeconds: number | null): number {
  const candidates = VIDEO_HEIGHTS.map(Number).filter((height) => height <= requestedHeight);
  if (maxBytes === undefined || candidates.length === 0) return requestedHeight;
  const formats = info.formats ?? [info as YtDlpFormat];
  const duration = info.duration ?? null;
  const share = duration !== null && duration > 0 && clipSeconds !== null ? Math.min(1, clipSeconds / duration) : 1;
  const audioBytes = largestEstimate(formats.filter((f) => f.vcodec === 'none'), duration);
  for (const height of candidates) {
    const video = formats.filter((f) => f.vcodec !== 'none' && (f.height ?? 0) <= height);
    if (video.length === 0) continue;
    const videoBytes = largestEstimate(video, duration);
    if (videoBytes === null) return height;
    const muxed = video.every((f) => f.acodec !== 'none');
    if ((videoBytes + (muxed ? 0 : (audioBytes ?? 0))) * share <= maxBytes) return height;
  }
  return candidates.at(-1) ?? requestedHeight;
}

function largestEstimate(formats: readonly YtDlpFormat[], duration: number | null): number | null {
  let largest: number | null = null;
  for (const format of formats) {
    const bytes = format.filesize ?? format.filesize_approx ?? (format.tbr != null && duration !== null ? (format.tbr * 1000 * duration) / 8 : null);
    if (bytes !== null && (largest === null || bytes > largest)) largest = bytes;
  }
  return largest;
}
