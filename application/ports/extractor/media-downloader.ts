import type { MediaFormat } from '../../../domain/media-format.js';

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

/** The extractor's capability to download a video's media into a work directory: what download jobs ask of it. */
export interface MediaDownloader {
  download(request: DownloadMediaRequest): Promise<DownloadedMedia>;
}
