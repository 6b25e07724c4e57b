import type { Job, Progress } from './api-types.js';
import { cancelledJobs } from './cancelled-jobs.js';

/** Human-readable figures for the views. */

const COUNT = new Intl.NumberFormat();

/** A whole number with the reader's digit grouping: 5000000 reads 5,000,000 in English. */
export function formatCount(value: number): string {
  return COUNT.format(value);
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 || value >= 100 ? 0 : 1)} ${units[unit]}`;
}

export function formatDate(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleString();
}

export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  const mm = String(m).padStart(h > 0 ? 2 : 1, '0');
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

const STATUS_WORDS: Record<Job['status'], string> = {
  IN_QUEUE: 'In queue',
  IN_PROGRESS: 'In progress',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
};

/** The status as shown: the API's, except that a job this tab cancelled reads "Cancelled", not "Failed". */
export function shownStatus(job: Job): Job['status'] | 'CANCELLED' {
  return job.status === 'FAILED' && cancelledJobs.has(job.jobId) ? 'CANCELLED' : job.status;
}

export function statusWords(job: Job): string {
  const status = shownStatus(job);
  return status === 'CANCELLED' ? 'Cancelled' : (STATUS_WORDS[status] ?? status);
}

/** "downloading 42 % · 3.1 MB of 7.4 MB · 1.2 MB/s · 4 s left" */
export function describeProgress(progress: Progress): string {
  const parts: string[] = [progress.stage];
  if (progress.percent !== undefined) parts[0] += ` ${Math.round(progress.percent)} %`;
  if (progress.downloadedBytes !== undefined) {
    parts.push(
      progress.totalBytes !== undefined
        ? `${formatBytes(progress.downloadedBytes)} of ${formatBytes(progress.totalBytes)}`
        : formatBytes(progress.downloadedBytes),
    );
  }
  if (progress.speedBytesPerSecond !== undefined) parts.push(`${formatBytes(progress.speedBytesPerSecond)}/s`);
  if (progress.etaSeconds !== undefined) parts.push(`${formatDuration(progress.etaSeconds)} left`);
  return parts.join(' · ');
}
