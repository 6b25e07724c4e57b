import type { Job } from './api-types.js';
import { el } from './dom.js';
import { describeProgress, shownStatus, statusWords } from './format.js';

/** A job's bar and its words: queued empty, running by its percent (indeterminate until one is known), ended full. */
export function jobProgress(job: Job, labelId: string): HTMLElement {
  const bar = el('progress', { max: '100', 'aria-labelledby': labelId, 'data-job-progress': job.jobId });
  const percent = barPercent(job);
  if (percent !== null) bar.value = percent;
  const words =
    job.progress !== undefined && !isEnded(job)
      ? `${statusWords(job)}: ${describeProgress(job.progress)}`
      : statusWords(job);
  return el(
    'div',
    { class: 'progress' },
    bar,
    el('span', { class: `meta status-${shownStatus(job)}`, id: labelId, 'data-job-status': job.status }, words),
  );
}

function barPercent(job: Job): number | null {
  if (job.status === 'COMPLETED') return 100;
  if (job.status === 'IN_QUEUE' || job.status === 'FAILED') return 0;
  return job.progress?.percent ?? null;
}

const isEnded = (job: Job) => job.status === 'COMPLETED' || job.status === 'FAILED';
