import { clientDownloadJobDecider } from '../../../domain/client-download-job/decider.js';
import type { ClientDownloadJobEvent } from '../../../domain/client-download-job/events.js';
import { deciderSpecification } from '../../support/decider-specification.js';

const spec = deciderSpecification(clientDownloadJobDecider);
const jobId = 'job-1';
const accountId = 'acc-1';
const url = 'https://www.instagram.com/reel/C0abc/';
const t0 = '2026-03-01T00:00:00.000Z';
const t1 = '2026-03-01T00:00:05.000Z';
const requested: ClientDownloadJobEvent = {
  type: 'ClientDownloadRequested',
  data: { jobId, accountId, url, platform: 'photo-sharing', requestedAt: t0, expiresAt: '2026-03-01T01:00:00.000Z' },
};
const attemptFailed = (attempt: number): ClientDownloadJobEvent => ({
  type: 'ClientDownloadAttemptFailed',
  data: { jobId, accountId, attempt, error: 'timed out', errorCode: 'NETWORK_ERROR', failedAt: t1 },
});
const recordFailure = (attempt: number) => ({ type: 'RecordClientDownloadAttemptFailure' as const, data: { jobId, attempt, error: 'timed out', errorCode: 'NETWORK_ERROR' as const, now: t1 } });

describe('client-download job decider: RecordClientDownloadAttemptFailure', () => {
  it('counts the failed attempts of a pending job in its stream', () => {
    spec.given([requested]).when(recordFailure(1)).then([attemptFailed(1)]);
    spec.given([requested, attemptFailed(1)]).when(recordFailure(2)).then([attemptFailed(2)]);
  });

  it('records an attempt once, however many overlapping deliveries report it', () => {
    spec.given([requested, attemptFailed(1)]).when(recordFailure(1)).thenNothingHappened();
    spec.given([requested, attemptFailed(1), attemptFailed(2)]).when(recordFailure(2)).thenNothingHappened();
  });

  it('ignores a late report for a job that has finished meanwhile', () => {
    const failed: ClientDownloadJobEvent = {
      type: 'ClientDownloadFailed',
      data: { jobId, accountId, error: 'Video unavailable', errorCode: 'VIDEO_UNAVAILABLE', failedAt: t1 },
    };
    spec.given([requested, failed]).when(recordFailure(1)).thenNothingHappened();
  });
});
