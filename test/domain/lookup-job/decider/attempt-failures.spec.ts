import type { LookupJobEvent } from '../../../../domain/lookup-job/events.js';
import { deciderSpecification } from '../../../support/decider-specification.js';
import { LOOKUP_JOB_EXAMPLE, LOOKUP_JOB_KIND_EXAMPLES } from '../lookup-job-kinds.js';

for (const { title, name, decider, url, details, finalFailure } of LOOKUP_JOB_KIND_EXAMPLES) {
  const spec = deciderSpecification(decider);
  const { jobId, accountId, t0, t1 } = LOOKUP_JOB_EXAMPLE;
  const requested: LookupJobEvent<string, object, unknown> = {
    type: `${name}Requested`,
    data: { jobId, accountId, url, ...details, requestedAt: t0, expiresAt: '2026-03-01T01:00:00.000Z' },
  };
  const attemptFailed = (attempt: number): LookupJobEvent<string, object, unknown> => ({
    type: `${name}AttemptFailed`,
    data: { jobId, accountId, attempt, error: 'timed out', errorCode: 'NETWORK_ERROR', failedAt: t1 },
  });
  const recordFailure = (attempt: number) => ({
    type: `Record${name}AttemptFailure` as const,
    data: { jobId, attempt, error: 'timed out', errorCode: 'NETWORK_ERROR' as const, now: t1 },
  });

  describe(`${title} decider: Record${name}AttemptFailure`, () => {
    it('counts the failed attempts of a pending job in its stream', () => {
      spec
        .given([requested])
        .when(recordFailure(1))
        .then([attemptFailed(1)]);
      spec
        .given([requested, attemptFailed(1)])
        .when(recordFailure(2))
        .then([attemptFailed(2)]);
    });

    it('records an attempt once, however many overlapping deliveries report it', () => {
      spec
        .given([requested, attemptFailed(1)])
        .when(recordFailure(1))
        .thenNothingHappened();
      spec
        .given([requested, attemptFailed(1), attemptFailed(2)])
        .when(recordFailure(2))
        .thenNothingHappened();
    });

    it('ignores a late report for a job that has finished meanwhile', () => {
      const failed: LookupJobEvent<string, object, unknown> = {
        type: `${name}Failed`,
        data: { jobId, accountId, ...finalFailure, failedAt: t1 },
      };
      spec.given([requested, failed]).when(recordFailure(1)).thenNothingHappened();
    });
  });
}
