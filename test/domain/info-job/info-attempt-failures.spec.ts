import { infoJobDecider } from '../../../domain/info-job/decider.js';
import type { InfoJobEvent } from '../../../domain/info-job/events.js';
import { deciderSpecification } from '../../support/decider-specification.js';

const spec = deciderSpecification(infoJobDecider);
const jobId = 'job-1';
const accountId = 'acc-1';
const url = 'https://www.youtube.com/watch?v=abc';
const t0 = '2026-03-01T00:00:00.000Z';
const t1 = '2026-03-01T00:00:05.000Z';
const requested: InfoJobEvent = { type: 'InfoRequested', data: { jobId, accountId, url, includeAudioTracks: false, requestedAt: t0, expiresAt: '2026-03-01T01:00:00.000Z' } };
const attemptFailed = (attempt: number): InfoJobEvent => ({
  type: 'InfoAttemptFailed',
  data: { jobId, accountId, attempt, error: 'timed out', errorCode: 'NETWORK_ERROR', failedAt: t1 },
});
const recordFailure = (attempt: number) => ({ type: 'RecordInfoAttemptFailure' as const, data: { jobId, attempt, error: 'timed out', errorCode: 'NETWORK_ERROR' as const, now: t1 } });

describe('info job decider: RecordInfoAttemptFailure', () => {
  it('counts the failed attempts of a pending job in its stream', () => {
    spec.given([requested]).when(recordFailure(1)).then([attemptFailed(1)]);
    spec.given([requested, attemptFailed(1)]).when(recordFailure(2)).then([attemptFailed(2)]);
  });

  it('records an attempt once, however many overlapping deliveries report it', () => {
    spec.given([requested, attemptFailed(1)]).when(recordFailure(1)).thenNothingHappened();
    spec.given([requested, attemptFailed(1), attemptFailed(2)]).when(recordFailure(2)).thenNothingHappened();
  });

  it('ignores a late report for a job that has finished meanwhile', () => {
    const failed: InfoJobEvent = { type: 'InfoFailed', data: { jobId, accountId, error: 'Private video', errorCode: 'PRIVATE_VIDEO', failedAt: t1 } };
    spec.given([requested, failed]).when(recordFailure(1)).thenNothingHappened();
  });
});
