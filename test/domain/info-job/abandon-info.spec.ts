import { JobAbandonedError } from '../../../domain/errors.js';
import { infoJobDecider } from '../../../domain/info-job/decider.js';
import type { InfoJobEvent } from '../../../domain/info-job/events.js';
import { deciderSpecification } from '../../support/decider-specification.js';

const spec = deciderSpecification(infoJobDecider);
const jobId = 'job-1';
const accountId = 'acc-1';
const url = 'https://www.youtube.com/watch?v=abc';
const t0 = '2026-03-01T00:00:00.000Z';
const expiresAt = '2026-03-01T01:00:00.000Z';
const abandoned: InfoJobEvent = { type: 'InfoAbandoned', data: { jobId, accountId, abandonedAt: t0 } };
const requested: InfoJobEvent = { type: 'InfoRequested', data: { jobId, accountId, url, includeAudioTracks: false, requestedAt: t0, expiresAt } };
const abandon = { type: 'AbandonInfo' as const, data: { jobId, accountId, now: t0 } };

describe('info job decider: AbandonInfo', () => {
  it('abandons a job that was never written', () => {
    spec.given([]).when(abandon).then([abandoned]);
  });

  it('does nothing to a job that exists, or that is already abandoned', () => {
    spec.given([requested]).when(abandon).thenNothingHappened();
    spec.given([abandoned]).when(abandon).thenNothingHappened();
  });

  it('refuses a request that arrives after the abandonment', () => {
    spec.given([abandoned]).when({ type: 'RequestInfo', data: { jobId, accountId, url, includeAudioTracks: false, expiresAt, now: t0 } }).thenThrows(JobAbandonedError);
  });

  it('refuses to finish an abandoned job', () => {
    spec.given([abandoned]).when({ type: 'FailInfo', data: { jobId, error: 'x', errorCode: null, now: t0 } }).thenThrows(JobAbandonedError);
  });
});
