import {
  type ClientDownloadInfo,
  type ClientDownloadJobEvent,
  clientDownloadJobDecider,
} from '../../../domain/lookup-job/client-download-job.js';
import { InvalidTransitionError, NotFoundError } from '../../../domain/errors.js';
import { deciderSpecification } from '../../support/decider-specification.js';
import { LOOKUP_JOB_EXAMPLE } from './lookup-job-kinds.js';

const spec = deciderSpecification(clientDownloadJobDecider);
const { jobId, accountId, t0, t1 } = LOOKUP_JOB_EXAMPLE;
const url = 'https://www.instagram.com/reel/C0abc/';
const expiresAt = '2026-03-01T06:00:00.000Z';
const result: ClientDownloadInfo = {
  title: 'A reel',
  url,
  duration: 12.5,
  downloadLinks: [
    { url: 'https://cdn.example/v.mp4', type: 'video', hasAudio: true, width: 720, height: 1280, sizeBytes: 1000 },
  ],
  author: 'someone',
};

const requested: ClientDownloadJobEvent = {
  type: 'ClientDownloadRequested',
  data: { jobId, accountId, url, platform: 'photo-sharing', requestedAt: t0, expiresAt },
};
const succeeded: ClientDownloadJobEvent = {
  type: 'ClientDownloadSucceeded',
  data: { jobId, accountId, result, succeededAt: t1 },
};
const failed: ClientDownloadJobEvent = {
  type: 'ClientDownloadFailed',
  data: { jobId, accountId, error: 'Video unavailable', errorCode: 'VIDEO_UNAVAILABLE', failedAt: t1 },
};

describe('client-download job decider', () => {
  it('creates a pending job', () => {
    spec
      .given([])
      .when({
        type: 'RequestClientDownload',
        data: { jobId, accountId, url, platform: 'photo-sharing', expiresAt, now: t0 },
      })
      .then([requested]);
    spec
      .given([requested])
      .when({
        type: 'RequestClientDownload',
        data: { jobId, accountId, url, platform: 'photo-sharing', expiresAt, now: t1 },
      })
      .thenNothingHappened();
  });

  it('succeeds a pending job with its links, once', () => {
    spec
      .given([requested])
      .when({ type: 'CompleteClientDownload', data: { jobId, result, now: t1 } })
      .then([succeeded]);
    spec
      .given([requested, succeeded])
      .when({ type: 'CompleteClientDownload', data: { jobId, result, now: t1 } })
      .thenNothingHappened();
  });

  it('refuses a success without any link', () => {
    spec
      .given([requested])
      .when({ type: 'CompleteClientDownload', data: { jobId, result: { ...result, downloadLinks: [] }, now: t1 } })
      .thenThrows(InvalidTransitionError);
  });

  it('fails a pending job, once', () => {
    spec
      .given([requested])
      .when({
        type: 'FailClientDownload',
        data: { jobId, error: 'Video unavailable', errorCode: 'VIDEO_UNAVAILABLE', now: t1 },
      })
      .then([failed]);
    spec
      .given([requested, failed])
      .when({ type: 'FailClientDownload', data: { jobId, error: 'x', errorCode: null, now: t1 } })
      .thenNothingHappened();
  });

  it('never leaves a final state for the other', () => {
    spec
      .given([requested, failed])
      .when({ type: 'CompleteClientDownload', data: { jobId, result, now: t1 } })
      .thenThrows(InvalidTransitionError);
    spec
      .given([requested, succeeded])
      .when({ type: 'FailClientDownload', data: { jobId, error: 'x', errorCode: null, now: t1 } })
      .thenThrows(InvalidTransitionError);
  });

  it('knows no job before it is requested', () => {
    spec
      .given([])
      .when({ type: 'FailClientDownload', data: { jobId, error: 'x', errorCode: null, now: t1 } })
      .thenThrows(NotFoundError);
  });
});
