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
  onProgress?: (progress: { downloadedBytes: number; totalBytes: number | null }) => void;
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
}

export interface Extractor {
  probe(url: string, options?: ProbeOptions): Promise<VideoMetadata>;
  download(request: DownloadMediaRequest): Promise<DownloadedMedia>;
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
