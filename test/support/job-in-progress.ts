import type { DownloadJobCommandHandler } from '../../application/downloads/download-job-commands.js';

/** The lease the job written by startJobInProgress runs under; its completion must name it. */
export const FIRST_LEASE = 'lease-1';

const now = () => new Date().toISOString();

/** Writes a job for `accountId` through its commands and starts it, as a worker taking its first delivery would. */
export async function startJobInProgress(
  jobs: DownloadJobCommandHandler,
  jobId: string,
  accountId = 'acc-1',
): Promise<void> {
  await jobs.handle(jobId, {
    type: 'SubmitDownload',
    data: {
      jobId,
      accountId,
      url: 'https://www.youtube.com/watch?v=x',
      format: 'audio',
      startTime: null,
      endTime: null,
      language: null,
      webhookUrl: null,
      title: 't',
      duration: 10,
      maxFileSizeBytes: 1_000_000,
      now: now(),
    },
  });
  await jobs.handle(jobId, { type: 'StartJob', data: { jobId, leaseId: FIRST_LEASE, messageId: 'm-1', now: now() } });
}

/** Completes a job started by startJobInProgress with a small audio file. */
export async function completeJobInProgress(jobs: DownloadJobCommandHandler, jobId: string): Promise<void> {
  await jobs.handle(jobId, {
    type: 'CompleteJob',
    data: {
      jobId,
      fileKey: 'k',
      fileSize: 1,
      actualFormat: 'audio',
      mimeType: 'audio/mp4',
      fileExtension: 'm4a',
      now: now(),
      leaseId: FIRST_LEASE,
    },
  });
}
