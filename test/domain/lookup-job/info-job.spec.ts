import { InvalidTransitionError, NotFoundError } from '../../../domain/errors.js';
import { type InfoJobEvent, infoJobDecider } from '../../../domain/lookup-job/info-job.js';
import { deciderSpecification } from '../../support/decider-specification.js';
import { LOOKUP_JOB_EXAMPLE } from './lookup-job-kinds.js';

const spec = deciderSpecification(infoJobDecider);
const { jobId, accountId, t0, t1 } = LOOKUP_JOB_EXAMPLE;
const url = 'https://www.youtube.com/watch?v=abc';
const expiresAt = '2026-03-01T01:00:00.000Z';
const result = {
  title: 'A video',
  duration: 61,
  url,
  audio: [
    { type: 'original' as const, language: 'en' },
    { type: 'dubbed' as const, language: 'de' },
  ],
};

const requested: InfoJobEvent = {
  type: 'InfoRequested',
  data: { jobId, accountId, url, includeAudioTracks: true, requestedAt: t0, expiresAt },
};
const succeeded: InfoJobEvent = { type: 'InfoSucceeded', data: { jobId, accountId, result, succeededAt: t1 } };
const failed: InfoJobEvent = {
  type: 'InfoFailed',
  data: { jobId, accountId, error: 'Private video', errorCode: 'PRIVATE_VIDEO', failedAt: t1 },
};

describe('info job decider', () => {
  it('creates a pending job that expires when the submission says', () => {
    spec
      .given([])
      .when({ type: 'RequestInfo', data: { jobId, accountId, url, includeAudioTracks: true, expiresAt, now: t0 } })
      .then([requested]);
  });

  it('ignores a repeated request for the same job', () => {
    spec
      .given([requested])
      .when({ type: 'RequestInfo', data: { jobId, accountId, url, includeAudioTracks: true, expiresAt, now: t1 } })
      .thenNothingHappened();
  });

  it('succeeds a pending job with its result', () => {
    spec
      .given([requested])
      .when({ type: 'CompleteInfo', data: { jobId, result, now: t1 } })
      .then([succeeded]);
  });

  it('fails a pending job with the error and its code, or none when unrecognised', () => {
    spec
      .given([requested])
      .when({ type: 'FailInfo', data: { jobId, error: 'Private video', errorCode: 'PRIVATE_VIDEO', now: t1 } })
      .then([failed]);
    spec
      .given([requested])
      .when({ type: 'FailInfo', data: { jobId, error: 'The extractor failed', errorCode: null, now: t1 } })
      .then([
        {
          type: 'InfoFailed',
          data: { jobId, accountId, error: 'The extractor failed', errorCode: null, failedAt: t1 },
        },
      ]);
  });

  it('treats a redelivered outcome as done', () => {
    spec
      .given([requested, succeeded])
      .when({ type: 'CompleteInfo', data: { jobId, result, now: t1 } })
      .thenNothingHappened();
    spec
      .given([requested, failed])
      .when({ type: 'FailInfo', data: { jobId, error: 'again', errorCode: null, now: t1 } })
      .thenNothingHappened();
  });

  it('refuses to succeed a failed job or fail a succeeded one', () => {
    spec
      .given([requested, failed])
      .when({ type: 'CompleteInfo', data: { jobId, result, now: t1 } })
      .thenThrows(InvalidTransitionError);
    spec
      .given([requested, succeeded])
      .when({ type: 'FailInfo', data: { jobId, error: 'late', errorCode: null, now: t1 } })
      .thenThrows(InvalidTransitionError);
  });

  it('knows no job before it is requested', () => {
    spec
      .given([])
      .when({ type: 'CompleteInfo', data: { jobId, result, now: t1 } })
      .thenThrows(NotFoundError);
  });
});
