import type { DownloadErrorCode } from '../../../domain/download-error-code.js';
import { CLIENT_DOWNLOAD_JOB, clientDownloadJobDecider } from '../../../domain/lookup-job/client-download-job.js';
import type { LookupJobDecider } from '../../../domain/lookup-job/decider.js';
import { INFO_JOB, infoJobDecider } from '../../../domain/lookup-job/info-job.js';

/** One kind of lookup job as the shared specs run it: its decider, a job it may be requested with, and a failure it may end in. */
export interface LookupJobKindExample {
  title: string;
  name: string;
  decider: LookupJobDecider<string, object, unknown>;
  url: string;
  details: object;
  finalFailure: { error: string; errorCode: DownloadErrorCode };
}

export const LOOKUP_JOB_KIND_EXAMPLES: readonly LookupJobKindExample[] = [
  {
    title: 'info job',
    name: INFO_JOB.name,
    decider: infoJobDecider as unknown as LookupJobDecider<string, object, unknown>,
    url: 'https://www.youtube.com/watch?v=abc',
    details: { includeAudioTracks: false },
    finalFailure: { error: 'Private video', errorCode: 'PRIVATE_VIDEO' },
  },
  {
    title: 'client-download job',
    name: CLIENT_DOWNLOAD_JOB.name,
    decider: clientDownloadJobDecider as unknown as LookupJobDecider<string, object, unknown>,
    url: 'https://www.instagram.com/reel/C0abc/',
    details: { platform: 'photo-sharing' },
    finalFailure: { error: 'Video unavailable', errorCode: 'VIDEO_UNAVAILABLE' },
  },
];

/** The job, its account and two instants the lookup-job specs share. */
export const LOOKUP_JOB_EXAMPLE = {
  jobId: 'job-1',
  accountId: 'acc-1',
  t0: '2026-03-01T00:00:00.000Z',
  t1: '2026-03-01T00:00:05.000Z',
} as const;
