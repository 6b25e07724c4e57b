/** The most videos one batch takes, whether listed or given as URLs. */
export const MAX_BATCH_VIDEOS = 500;

/**
 * Where a batch's videos come from: a playlist or a channel, listed once when
 * the batch starts, or URLs given in the request. URLs arrive already checked
 * against the platform's forms and in their canonical spelling, so one video
 * has one URL.
 */
export type BatchSource =
  | { kind: 'playlist'; url: string }
  | { kind: 'channel'; url: string }
  | { kind: 'urls'; urls: readonly string[] };

/** A video a listing found (or a URL given), in listing order; the title is null until a job looks the video up. */
export interface ListedVideo {
  videoUrl: string;
  title: string | null;
}
