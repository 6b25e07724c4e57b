import type { ExtractorProgress } from '../../application/ports/extractor/media-downloader.js';
import { PROGRESS_LINE_PREFIX } from './build-download-arguments.js';

export type ProgressUpdate = ExtractorProgress;

interface ProgressLine {
  status?: string;
  downloaded_bytes?: number | null;
  total_bytes?: number | null;
  total_bytes_estimate?: number | null;
  speed?: number | null;
  eta?: number | null;
}

/**
 * Turns yt-dlp's progress lines into running totals. A merged download
 * fetches video and audio one after the other, each counting from zero: the
 * finished ones are added up, and the total is known only for what has
 * started, so it grows as the next stream begins.
 */
export class DownloadProgress {
  private finishedBytes = 0;

  /** The update a stdout line carries, or null when it is not a progress line. */
  read(line: string): ProgressUpdate | null {
    if (!line.startsWith(PROGRESS_LINE_PREFIX)) return null;
    let progress: ProgressLine;
    try {
      progress = JSON.parse(line.slice(PROGRESS_LINE_PREFIX.length)) as ProgressLine;
    } catch {
      return null;
    }
    const downloaded = finiteOrNull(progress.downloaded_bytes) ?? 0;
    const total = finiteOrNull(progress.total_bytes) ?? finiteOrNull(progress.total_bytes_estimate);
    // yt-dlp prints its post-processing (ffmpeg merging, extracting, cutting) only to stderr without line ends, so a
    // finished stream is taken as the start of it; the next stream, if any, switches back to downloading.
    const update: ProgressUpdate = {
      stage: progress.status === 'finished' ? 'converting' : 'downloading',
      downloadedBytes: this.finishedBytes + downloaded,
      totalBytes: total === null ? null : this.finishedBytes + Math.round(total),
      speedBytesPerSecond: finiteOrNull(progress.speed),
      etaSeconds: finiteOrNull(progress.eta),
    };
    if (progress.status === 'finished') this.finishedBytes += downloaded;
    return update;
  }
}

function finiteOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
