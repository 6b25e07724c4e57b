import type { DownloadProgress } from '../ports/download-progress.js';
import type { ExtractorProgress } from '../ports/extractor/media-downloader.js';

/** The client-facing figures of an extractor update: whole bytes and seconds, a percent only when the total is known. */
export function progressFromExtractor(update: ExtractorProgress): DownloadProgress {
  const progress: DownloadProgress = {
    stage: update.stage ?? 'downloading',
    downloadedBytes: Math.max(0, Math.round(update.downloadedBytes)),
  };
  const total = update.totalBytes;
  if (total !== null && total > 0) {
    progress.totalBytes = Math.round(total);
    progress.percent = Math.min(100, Math.round((update.downloadedBytes / total) * 1000) / 10);
  }
  if (update.speedBytesPerSecond != null && update.speedBytesPerSecond >= 0)
    progress.speedBytesPerSecond = Math.round(update.speedBytesPerSecond);
  if (update.etaSeconds != null && update.etaSeconds >= 0) progress.etaSeconds = Math.round(update.etaSeconds);
  return progress;
}
