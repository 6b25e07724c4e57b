/** How far a running download is: ephemeral, never an event (see GET /download/{jobId}'s `progress`). */
export interface DownloadProgress {
  stage: 'downloading' | 'converting' | 'storing';
  /** 0 to 100. */
  percent?: number;
  downloadedBytes?: number;
  totalBytes?: number;
  speedBytesPerSecond?: number;
  etaSeconds?: number;
}

/**
 * Where workers report progress. Best effort and lossy by design: a lost
 * report only leaves a staler figure, so reporting never fails or waits.
 */
export interface ProgressReports {
  report(jobId: string, progress: DownloadProgress): void;
}
