import { JobAbandonedError } from '../../../../domain/errors.js';
import type { LookupJobEvent } from '../../../../domain/lookup-job/events.js';
import { deciderSpecification } from '../../../support/decider-specification.js';
import { LOOKUP_JOB_EXAMPLE, LOOKUP_JOB_KIND_EXAMPLES } from '../lookup-job-kinds.js';

for (const { title, name, decider, url, details } of LOOKUP_JOB_KIND_EXAMPLES) {
  const spec = deciderSpecification(decider);
  const { jobId, accountId, t0 } = LOOKUP_JOB_EXAMPLE;
  const expiresAt = '2026-03-01T01:00:00.000Z';
  const abandoned: LookupJobEvent<string, object, unknown> = {
    type: `${name}Abandoned`,
    data: { jobId, accountId, abandonedAt: t0 },
  };
  const requested: LookupJobEvent<string, object, unknown> = {
    type: `${name}Requested`,
    data: { jobId, accountId, url, ...details, requestedAt: t0, expiresAt },
  };
  const abandon = { type: `Abandon${name}` as const, data: { jobId, accountId, now: t0 } };

  describe(`${title} decider: Abandon${name}`, () => {
    it('abandons a job that was never written', () => {
      spec.given([]).when(abandon).then([abandoned]);
    });

    it('does nothing to a job that exists, or that is already abandoned', () => {
      spec.given([requested]).when(abandon).thenNothingHappened();
      spec.given([abandoned]).when(abandon).thenNothingHappened();
    });

    it('refuses a request that arrives after the abandonment', () => {
      spec
        .given([abandoned])
        .when({ type: `Request${name}`, data: { jobId, accountId, url, ...details, expiresAt, now: t0 } })
        .thenThrows(JobAbandonedError);
    });

    it('refuses to finish an abandoned job', () => {
      spec
        .given([abandoned])
        .when({ type: `Fail${name}`, data: { jobId, error: 'x', errorCode: null, now: t0 } })
        .thenThrows(JobAbandonedError);
    });
  });
}
