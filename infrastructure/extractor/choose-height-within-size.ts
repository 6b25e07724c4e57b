import { VIDEO_HEIGHTS } from '../../domain/media-format.js';
import type { YtDlpFormat, YtDlpInfo } from './parse-video-metadata.js';

/**
 * The height cap for a download that must fit `maxBytes`: the requested
 * height if its estimate fits, else each lower named height in turn, else
 * the lowest named height (the smallest file on offer, even if too large).
 * A height's estimate is its largest video format plus the largest audio
 * format when video and audio come apart; a format's size is the reported
 * size, else the approximate size, else bitrate x duration. A clip is
 * estimated as its share of the whole. Without any estimate the request
 * stands.
 */
export function chooseHeightWithinSize(
  info: YtDlpInfo,
  requestedHeight: number,
  maxBytes: number | undefined,
  clipSeconds: number | null,
): number {
  const candidates = VIDEO_HEIGHTS.map(Number)
    .filter((height) => height <= requestedHeight)
    .sort((a, b) => b - a);
  if (maxBytes === undefined || candidates.length === 0) return requestedHeight;
  const formats = info.formats ?? [info];
  const duration = typeof info.duration === 'number' && info.duration > 0 ? info.duration : null;
  const share = duration !== null && clipSeconds !== null ? Math.min(1, clipSeconds / duration) : 1;
  const audioBytes = largestEstimate(
    // Storyboards have neither video nor audio.
    formats.filter((format) => format.vcodec === 'none' && format.acodec !== 'none'),
    duration,
  );
  for (const height of candidates) {
    const video = formats.filter((format) => format.vcodec !== 'none' && (format.height ?? 0) <= height);
    if (video.length === 0) continue;
    const videoBytes = largestEstimate(video, duration);
    if (videoBytes === null) return height;
    const muxed = video.every((format) => format.acodec !== 'none');
    if ((videoBytes + (muxed ? 0 : (audioBytes ?? 0))) * share <= maxBytes) return height;
  }
  return candidates[candidates.length - 1];
}

function largestEstimate(formats: readonly YtDlpFormat[], duration: number | null): number | null {
  let largest: number | null = null;
  for (const format of formats) {
    const bytes =
      format.filesize ??
      format.filesize_approx ??
      (format.tbr != null && duration !== null ? (format.tbr * 1000 * duration) / 8 : null);
    if (bytes !== null && (largest === null || bytes > largest)) largest = bytes;
  }
  return largest;
}
