import { type TrackedBatch, batchIsTerminal } from './tracked-batch.js';

/** The video statuses a finished batch may show: each video has its one job, or its one refusal. */
const SETTLED = new Set(['completed', 'failed', 'cancelled', 'refused']);

/**
 * Every batch finished after the quiet period; every distinct video submitted appears once; each settled video has exactly
 * one job (never one two videos share) or one refusal with its reason; `completed` means every video completed.
 * What each job ended as is the job invariants' to judge: the batch's jobs are tracked like any other.
 */
export function checkBatches(batches: readonly TrackedBatch[]): string[] {
  const broken: string[] = [];
  const jobOwners = new Map<string, string>();
  for (const batch of batches) {
    const where = `batch ${batch.batchId}`;
    if (!batchIsTerminal(batch)) {
      broken.push(`${where} still ${batch.status ?? 'unseen'} after the quiet period`);
      continue;
    }
    // A URL given twice is one video: a batch never admits a video twice.
    const submitted = [...new Set(batch.videos.map((video) => video.url))].sort();
    const seen = batch.seen.map((video) => video.videoUrl).sort();
    if (submitted.join('\n') !== seen.join('\n'))
      broken.push(
        `${where} shows ${seen.length} videos for the ${submitted.length} distinct ones submitted, or other ones`,
      );
    for (const video of batch.seen) {
      const one = (video.jobId === null) !== (video.refusal === null);
      if (!SETTLED.has(video.status) || !one)
        broken.push(
          `${where}: video ${video.videoUrl} ended ${video.status} with ${video.jobId === null ? 'no job' : 'a job'} and ${video.refusal === null ? 'no refusal' : 'a refusal'}`,
        );
      if (video.jobId === null) continue;
      const owner = jobOwners.get(video.jobId);
      if (owner !== undefined) broken.push(`${where}: job ${video.jobId} is also ${owner}'s`);
      jobOwners.set(video.jobId, `${where} ${video.videoUrl}`);
    }
    if (batch.status === 'completed' && batch.seen.some((video) => video.status !== 'completed'))
      broken.push(`${where} is completed with videos that are not`);
  }
  return broken;
}
