import type { SubscriptionHistory } from './tracked-subscription.js';

/** A job a subscription submitted and did not take back: written, or to be written, under this id. */
export interface SubmittedJob {
  jobId: string;
  videoId: string;
  submittedAt: string;
}

/** The jobs of a subscription's stream: each submission, less those refused or put back to wait (never written). */
export function submittedJobs(history: SubscriptionHistory): SubmittedJob[] {
  const jobs = new Map<string, SubmittedJob>();
  for (const { type, data, recordedAt } of history.events) {
    if (type === 'SubscriptionVideoSubmitted')
      jobs.set(data.jobId as string, {
        jobId: data.jobId as string,
        videoId: data.videoId as string,
        submittedAt: recordedAt,
      });
    if ((type === 'SubscriptionVideoDeferred' || type === 'SubscriptionVideoRefused') && data.jobId !== null)
      jobs.delete(data.jobId as string);
  }
  return [...jobs.values()];
}

/** Its checks: those that listed (and were charged), and those started and never ended (which may have been). */
export function checkCounts(history: SubscriptionHistory): { completed: number; unended: number } {
  const started = new Set<string>();
  let completed = 0;
  for (const { type, data } of history.events) {
    if (type === 'SubscriptionCheckStarted') started.add(data.checkId as string);
    if (type === 'SubscriptionCheckCompleted') {
      completed += 1;
      started.delete(data.checkId as string);
    }
  }
  return { completed, unended: started.size };
}

/**
 * Per subscription: no video got two jobs; nothing was submitted while it
 * was paused, and nothing at all (no check either) after it was deleted.
 * Whether each job ended as it should is the job invariants' to judge: the
 * subscriptions' jobs are tracked like any other.
 */
export function checkSubscriptions(histories: readonly SubscriptionHistory[]): string[] {
  const broken: string[] = [];
  for (const history of histories) {
    const where = `subscription ${history.subscriptionId}`;
    const byVideo = new Map<string, string[]>();
    for (const job of submittedJobs(history))
      byVideo.set(job.videoId, [...(byVideo.get(job.videoId) ?? []), job.jobId]);
    for (const [videoId, jobIds] of byVideo)
      if (jobIds.length > 1)
        broken.push(`${where} submitted video ${videoId} ${jobIds.length} times: ${jobIds.join(', ')}`);
    broken.push(...afterPauseOrDeletion(where, history));
  }
  return broken;
}

function afterPauseOrDeletion(where: string, history: SubscriptionHistory): string[] {
  const broken: string[] = [];
  let status: 'active' | 'paused' | 'deleted' = 'active';
  for (const { type, data } of history.events) {
    if (status === 'deleted' && type !== 'SubscriptionDeleted' && !type.startsWith('Webhook'))
      broken.push(`${where}: ${type} after it was deleted`);
    else if (status === 'paused' && type === 'SubscriptionVideoSubmitted')
      broken.push(`${where}: video ${String(data.videoId)} submitted while paused`);
    if (type === 'SubscriptionPaused') status = 'paused';
    if (type === 'SubscriptionResumed') status = 'active';
    if (type === 'SubscriptionDeleted') status = 'deleted';
  }
  return broken;
}
