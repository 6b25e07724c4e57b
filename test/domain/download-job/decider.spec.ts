import { downloadJobDecider } from '../../../domain/download-job/decider.js';
import type { DownloadJobEvent, DownloadRequested } from '../../../domain/download-job/events.js';
import { InvalidTransitionError, LeaseHeldError, LeaseLostError, NotFoundError } from '../../../domain/errors.js';
import { deciderSpecification } from '../../support/decider-specification.js';

const spec = deciderSpecification(downloadJobDecider);
const jobId = 'job-1';
const accountId = 'acc-1';
const t0 = '2026-03-01T00:00:00.000Z';
const t1 = '2026-03-01T00:00:05.000Z';
const t2 = '2026-03-01T00:01:00.000Z';

const request: Omit<DownloadRequested['data'], 'requestedAt'> = {
  jobId,
  accountId,
  url: 'https://www.youtube.com/watch?v=abc',
  format: 'audio',
  startTime: null,
  endTime: null,
  language: null,
  webhookUrl: null,
  title: 'A video',
  duration: 61,
  maxFileSizeBytes: 500_000_000,
};
const requested: DownloadJobEvent = { type: 'DownloadRequested', data: { ...request, requestedAt: t0 } };
const started = (attempt = 1, at = t1, leaseId = `lease-${attempt}`, messageId = 'message-1'): DownloadJobEvent => ({
  type: 'DownloadStarted',
  data: { jobId, accountId, attempt, startedAt: at, leaseId, messageId },
});
const completion = {
  fileKey: 'k/job-1.m4a',
  fileSize: 1234,
  actualFormat: 'audio' as const,
  mimeType: 'audio/mp4',
  fileExtension: 'm4a',
};
const completed: DownloadJobEvent = {
  type: 'DownloadCompleted',
  data: { jobId, accountId, ...completion, completedAt: t2 },
};
const failed: DownloadJobEvent = {
  type: 'DownloadFailed',
  data: { jobId, accountId, errorCode: 'PRIVATE_VIDEO', reason: 'Private video', failedAt: t2 },
};

const start = (attempt = 1, messageId = 'message-1') => ({
  type: 'StartJob' as const,
  data: { jobId, leaseId: `lease-${attempt}`, messageId, now: t1 },
});
const complete = { type: 'CompleteJob' as const, data: { jobId, ...completion, now: t2 } };
const fail = {
  type: 'FailJob' as const,
  data: { jobId, errorCode: 'PRIVATE_VIDEO' as const, reason: 'Private video', now: t2 },
};

describe('download job decider', () => {
  it('SubmitDownload requests the job; submitting the same job again does nothing', () => {
    spec
      .given([])
      .when({ type: 'SubmitDownload', data: { ...request, now: t0 } })
      .then([requested]);
    spec
      .given([requested])
      .when({ type: 'SubmitDownload', data: { ...request, now: t1 } })
      .thenNothingHappened();
  });
  it("StartJob moves a queued job in progress under the delivery's lease, and a repeated start by the same delivery does nothing", () => {
    spec.given([requested]).when(start()).then([started()]);
    spec.given([requested, started()]).when(start()).thenNothingHappened();
  });
  it('another delivery of the message that holds the lease takes the job over as a new attempt; a delivery of another message is refused', () => {
    spec
      .given([requested, started()])
      .when(start(2))
      .then([started(2)]);
    spec.given([requested, started()]).when(start(2, 'message-2')).thenThrows(LeaseHeldError);
  });
  it('a lease recorded without its message, as events written before messages were recorded, is taken over by any delivery', () => {
    const startedWithoutMessage: DownloadJobEvent = {
      type: 'DownloadStarted',
      data: { jobId, accountId, attempt: 1, startedAt: t1, leaseId: 'lease-1' },
    };
    spec
      .given([requested, startedWithoutMessage])
      .when(start(2, 'message-2'))
      .then([started(2, t1, 'lease-2', 'message-2')]);
  });
  it('a worker whose lease was taken over can neither complete nor fail the job, nor record a failed attempt', () => {
    const mine = { leaseId: 'lease-1' };
    spec
      .given([requested, started(), started(2)])
      .when({ ...complete, data: { ...complete.data, ...mine } })
      .thenThrows(LeaseLostError);
    spec
      .given([requested, started(), started(2)])
      .when({ ...fail, data: { ...fail.data, ...mine } })
      .thenThrows(LeaseLostError);
    spec
      .given([requested, started(), started(2)])
      .when({
        type: 'RecordAttemptFailure',
        data: { jobId, leaseId: 'lease-1', errorCode: 'NETWORK_ERROR', reason: 'x', now: t2 },
      })
      .thenThrows(LeaseLostError);
    spec
      .given([requested, started(), started(2)])
      .when({ ...complete, data: { ...complete.data, leaseId: 'lease-2' } })
      .then([completed]);
  });
  it('a failed attempt releases the lease and counts against the attempts; the next start is the next attempt', () => {
    const attemptFailed: DownloadJobEvent = {
      type: 'DownloadAttemptFailed',
      data: { jobId, accountId, attempt: 1, errorCode: 'NETWORK_ERROR', reason: 'x', failedAt: t2 },
    };
    spec
      .given([requested, started()])
      .when({
        type: 'RecordAttemptFailure',
        data: { jobId, leaseId: 'lease-1', errorCode: 'NETWORK_ERROR', reason: 'x', now: t2 },
      })
      .then([attemptFailed]);
    spec
      .given([requested, started(), attemptFailed])
      .when(start(2, 'message-2'))
      .then([started(2, t1, 'lease-2', 'message-2')]);
  });
  it('CompleteJob completes a job in progress, once', () => {
    spec.given([requested, started()]).when(complete).then([completed]);
    spec.given([requested, started(), completed]).when(complete).thenNothingHappened();
  });
  it('FailJob fails a queued or running job, once', () => {
    spec.given([requested, started()]).when(fail).then([failed]);
    spec.given([requested]).when(fail).then([failed]);
    spec.given([requested, started(), failed]).when(fail).thenNothingHappened();
  });
  it('rejects completing a failed or queued job, starting or failing a finished one, and commands on no job', () => {
    spec.given([requested, started(), failed]).when(complete).thenThrows(InvalidTransitionError);
    spec.given([requested]).when(complete).thenThrows(InvalidTransitionError);
    spec.given([requested, started(), completed]).when(start(2)).thenThrows(InvalidTransitionError);
    spec.given([requested, started(), failed]).when(start(2)).thenThrows(InvalidTransitionError);
    spec.given([requested, started(), completed]).when(fail).thenThrows(InvalidTransitionError);
    spec.given([]).when(start()).thenThrows(NotFoundError);
  });
});
