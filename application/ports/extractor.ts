import type { ClientDownloadLink } from '../../domain/lookup-job/client-download-job.js';
import type { DownloadErrorCode } from '../../domain/download-error-code.js';
import type { MediaFormat } from '../../domain/media-format.js';

export type LiveStatus = 'not_live' | 'is_live' | 'is_upcoming' | 'was_live' | 'post_live';

export interface AudioTrackInfo {
  type: 'original' | 'dubbed';
  /** ISO language code as the platform reports it, or null when unknown. */
  language: string | null;
}

export interface VideoMetadata {
  /** The platform's id of the video. */
  id: string;
  title: string;
  /** Whole seconds, rounded up so that [0, duration) covers the whole video. */
  duration: number;
  liveStatus: LiveStatus | null;
  tags: string[];
  /** Present only when asked for with includeAudioTracks. */
  audioTracks?: AudioTrackInfo[];
}

export interface ProbeOptions {
  includeAudioTracks?: boolean;
  signal?: AbortSignal;
}

/** What the extractor's output says of a running download; `converting` is post-processing (merging, audio extraction). */
export interface ExtractorProgress {
  stage?: 'downloading' | 'converting';
  downloadedBytes: number;
  totalBytes: number | null;
  speedBytesPerSecond?: number | null;
  etaSeconds?: number | null;
}

export interface DownloadMediaRequest {
  url: string;
  format: MediaFormat;
  /** Seconds, inclusive. */
  startTime?: number;
  /** Seconds, exclusive. */
  endTime?: number;
  language?: string;
  /** Video formats are capped down to a lower height when the estimate exceeds this. */
  maxFileSizeBytes?: number;
  /** An empty directory owned by this download; the adapter writes only there. */
  workDir: string;
  signal?: AbortSignal;
  onProgress?: (progress: ExtractorProgress) => void;
  /** Called now and then while the download waits for its turn (a platform back-off, slots, spacing, a yt-dlp update) or extracts the metadata first: steps that report no progress. */
  onWaiting?: () => void;
  /** The page's metadata as the extractor itself extracted it moments ago (its own JSON), to download from instead of extracting the page again. */
  infoJson?: string;
}

export interface DownloadedMedia {
  filePath: string;
  fileSize: number;
  actualFormat: MediaFormat;
  /** File extension without the dot, e.g. `m4a`, `mp4`, `mp3`. */
  extension: string;
  mimeType: string;
  /** Where the download's time went, in milliseconds by step, for the log (the extractor names its steps). */
  stageMs?: Record<string, number>;
}

export interface ChannelListingOptions {
  /** The most recent videos to list, 1 to 1000. */
  maxVideos: number;
  signal?: AbortSignal;
}

/**
 * A channel's flat listing as the extractor gives it, passed through to
 * clients: the named properties are always present, others may be.
 */
export interface ChannelListing {
  id: string;
  title: string;
  channel: string;
  channel_id: string;
  channel_url: string;
  entries: ChannelListingEntry[];
  [property: string]: unknown;
}

export interface ChannelListingEntry {
  id: string;
  title: string;
  url: string;
  uploader: string;
  [property: string]: unknown;
}

/** A direct media URL and what it holds: what a client-download job answers with. */
export type MediaLink = ClientDownloadLink;

/** A post or video's direct media links, best first, and what the platform says about it. */
export interface MediaLinks {
  title: string;
  /** Seconds; 0 when unknown. */
  duration: number;
  links: MediaLink[];
  description?: string;
  author?: string;
  authorUrl?: string;
  thumbnailUrl?: string;
}

export interface Extractor {
  probe(url: string, options?: ProbeOptions): Promise<VideoMetadata>;
  download(request: DownloadMediaRequest): Promise<DownloadedMedia>;
  /** The channel's most recent videos, without visiting each. */
  listChannel(url: string, options: ChannelListingOptions): Promise<ChannelListing>;
  /** Direct links to the media of a video or post on any supported platform. */
  resolveMediaLinks(url: string, options?: { signal?: AbortSignal }): Promise<MediaLinks>;
}

/**
 * A failure the extractor recognised. `code` is null for failures it could
 * not classify (treated as transient, retried); `message` is safe to show.
 */
export class ExtractionError extends Error {
  constructor(
    readonly code: DownloadErrorCode | null,
    message: string,
    /** The extractor's own words, for logs and the `details` of a 500. */
    readonly details?: string,
  ) {
    super(message);
    this.name = 'ExtractionError';
  }
}
