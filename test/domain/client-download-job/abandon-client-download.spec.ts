import { clientDownloadJobDecider } from '../../../domain/client-download-job/decider.js';
import type { ClientDownloadJobEvent } from '../../../domain/client-download-job/events.js';
import { JobAbandonedError } from '../../../domain/errors.js';
import { deciderSpecification } from '../../support/decider-specification.js';

const spec = deciderSpecification(clientDownloadJobDecider);
const jobId = 'job-1';
const accountId = 'acc-1';
const url = 'https://www.instagram.com/reel/C0abc/';
const t0 = '2026-03-01T00:00:00.000Z';
const expiresAt = '2026-03-01T01:00:00.000Z';
const abandoned: ClientDownloadJobEvent = { type: 'ClientDownloadAbandoned', data: { jobId, accountId, abandonedAt: t0 } };
const requested: ClientDownloadJobEvent = { type: 'ClientDownloadRequested', data: { jobId, accountId, url, platform: 'photo-sharing', requestedAt: t0, expiresAt } };
const abandon = { type: 'AbandonClientDownload' as const, data: { jobId, accountId, now: t0 } };

describe('client-download job decider: AbandonClientDownload', () => {
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
      .when({ type: 'RequestClientDownload', data: { jobId, accountId, url, platform: 'photo-sharing', expiresAt, now: t0 } })
      .thenThrows(JobAbandonedError);
  });

  it('refuses to finish an abandoned job', () => {
    spec.given([abandoned]).when({ type: 'FailClientDownload', data: { jobId, error: 'x', errorCode: null, now: t0 } }).thenThrows(JobAbandonedError);
  });
});
