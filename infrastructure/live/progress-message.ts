import type { DownloadProgress } from '../../application/ports/download-progress.js';

export interface ProgressMessage {
  jobId: string;
  progress: DownloadProgress;
}

const STAGES = new Set(['downloading', 'converting', 'storing']);
const wholeAtLeastZero = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const finiteAtLeastZero = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * A progress message off the broadcast channel, checked field by field: it
 * comes from another process, and what the API serves must match its
 * documented shape. Unknown or broken figures are dropped, not served.
 */
export function readProgressMessage(message: unknown): ProgressMessage | null {
  if (typeof message !== 'object' || message === null) return null;
  const { jobId, progress } = message as { jobId?: unknown; progress?: Record<string, unknown> };
  if (
    typeof jobId !== 'string' ||
    typeof progress !== 'object' ||
    progress === null ||
    !STAGES.has(progress.stage as string)
  )
    return null;
  const read: DownloadProgress = { stage: progress.stage as DownloadProgress['stage'] };
  if (finiteAtLeastZero(progress.percent) && (progress.percent as number) <= 100)
    read.percent = progress.percent as number;
  if (wholeAtLeastZero(progress.downloadedBytes)) read.downloadedBytes = progress.downloadedBytes as number;
  if (wholeAtLeastZero(progress.totalBytes)) read.totalBytes = progress.totalBytes as number;
  if (finiteAtLeastZero(progress.speedBytesPerSecond))
    read.speedBytesPerSecond = progress.speedBytesPerSecond as number;
  if (wholeAtLeastZero(progress.etaSeconds)) read.etaSeconds = progress.etaSeconds as number;
  return { jobId, progress: read };
}
