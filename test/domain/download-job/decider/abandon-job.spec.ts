import { downloadJobDecider } from '../../../../domain/download-job/decider.js';
import type { DownloadJobEvent } from '../../../../domain/download-job/events.js';
import { JobAbandonedError } from '../../../../domain/errors.js';
import { deciderSpecification } from '../../../support/decider-specification.js';

const spec = deciderSpecification(downloadJobDecider);
const jobId = 'job-1';
const accountId = 'acc-1';
const t0 = '2026-03-01T00:00:00.000Z';
const abandoned: DownloadJobEvent = { type: 'DownloadAbandoned', data: { jobId, accountId, abandonedAt: t0 } };
const requested: DownloadJobEvent = {
  type: 'DownloadRequested',
  data: {
    jobId,
    accountId,
    url: 'https://youtu.be/abc',
    format: 'audio',
    startTime: null,
    endTime: null,
    language: null,
    webhookUrl: null,
    title: 'T',
    duration: 5,
    maxFileSizeBytes: 1,
    requestedAt: t0,
  },
};
const abandon = { type: 'AbandonJob' as const, data: { jobId, accountId, now: t0 } };

describe('download job decider: AbandonJob', () => {
  it('abandons a job that was never written', () => {
    spec.given([]).when(abandon).then([abandoned]);
  });
  it('does nothing to a job that exists, or that is already abandoned', () => {
    spec.given([requested]).when(abandon).thenNothingHappened();
    spec.given([abandoned]).when(abandon).thenNothingHappened();
  });
  it('refuses to create or start an abandoned job', () => {
    const {
      jobId: _,
      accountId: __,
      requestedAt: ___,
      ...rest
    } = requested.data as Extract<DownloadJobEvent, { type: 'DownloadRequested' }>['data'];
    spec
      .given([abandoned])
      .when({ type: 'SubmitDownload', data: { jobId, accountId, ...rest, now: t0 } })
      .thenThrows(JobAbandonedError);
    spec
      .given([abandoned])
      .when({ type: 'StartJob', data: { jobId, leaseId: 'l1', messageId: 'm1', now: t0 } })
      .thenThrows(JobAbandonedError);
  });
});
