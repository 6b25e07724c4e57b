import assert from 'node:assert/strict';
import {
  ExtractorUnavailableError,
  ListingsBusyError,
  SubmissionsBusyError,
  VideoNotDownloadableError,
} from '../../../application/errors.js';
import {
  AddOnNotEnabledError,
  CreditLimitReachedError,
  IdempotencyKeyReusedError,
  InvalidTransitionError,
  JobAbandonedError,
  LeaseHeldError,
  LeaseLostError,
  NotFoundError,
  PendingDownloadsLimitError,
  RuleViolationError,
} from '../../../domain/errors.js';
import { toErrorResponse } from '../../../infrastructure/http/middleware/error-responses.js';
import { HttpError } from '../../../infrastructure/http/http-error.js';

describe('toErrorResponse: each error kind answers with its status, message, details and headers', () => {
  const cases: Array<[string, unknown, ReturnType<typeof toErrorResponse>]> = [
    [
      'a rule violation',
      new RuleViolationError('endTime must be at most 213'),
      { status: 400, error: 'endTime must be at most 213' },
    ],
    [
      'a video that cannot be downloaded',
      new VideoNotDownloadableError('MEMBERS_ONLY', 'This video is for members only'),
      { status: 400, error: 'This video is for members only', details: 'MEMBERS_ONLY' },
    ],
    [
      'a used-up limit, whatever the feature',
      new CreditLimitReachedError('bandwidth_mb'),
      { status: 403, error: 'Credit limit reached' },
    ],
    [
      'an add-on not enabled',
      new AddOnNotEnabledError('channel_list'),
      { status: 403, error: 'The channel_list add-on is not enabled for this account' },
    ],
    [
      'a missing thing',
      new NotFoundError('Download job x not found'),
      { status: 404, error: 'Download job x not found' },
    ],
    [
      'a transition not allowed',
      new InvalidTransitionError('already COMPLETED'),
      { status: 409, error: 'already COMPLETED' },
    ],
    [
      'a reused idempotency key',
      new IdempotencyKeyReusedError('k'),
      {
        status: 422,
        error: 'This Idempotency-Key was already used with a different request; use a new key for a new request',
      },
    ],
    [
      'too many pending downloads',
      new PendingDownloadsLimitError(100, 100),
      {
        status: 429,
        error:
          'Too many downloads queued or in progress (100 of 100); resubmit after some jobs reach COMPLETED or FAILED',
        headers: { 'X-Pending-Downloads': '100', 'X-Pending-Downloads-Limit': '100' },
      },
    ],
    [
      'submissions waiting for the platform',
      new SubmissionsBusyError('everyone', 3, 7, 100),
      {
        status: 429,
        error: 'Too many submissions are waiting for the video platform; retry after a few seconds',
        headers: { 'Retry-After': '3', 'X-Pending-Downloads': '7', 'X-Pending-Downloads-Limit': '100' },
      },
    ],
    [
      'listings under way',
      new ListingsBusyError('requester', 5),
      {
        status: 429,
        error: 'Too many channel listings of this account are under way; retry after 5 s',
        headers: { 'Retry-After': '5' },
      },
    ],
    [
      'an abandoned job',
      new JobAbandonedError('j1'),
      { status: 500, error: 'Job j1 was abandoned: its submission took too long and nothing was queued; submit again' },
    ],
    [
      'an unavailable extractor, whose own output goes to the log and not to the client',
      new ExtractorUnavailableError(
        'The video platform refused the request (HTTP 403); retry after a short backoff',
        'ERROR: [generic] x: HTTP Error 403: Go Away (caused by <HTTPError 403>); please report this issue on https://github.com/yt-dlp/yt-dlp/issues?q= , filling out the appropriate issue template. Confirm you are on the latest version using yt-dlp -U',
      ),
      { status: 500, error: 'The video platform refused the request (HTTP 403); retry after a short backoff' },
    ],
    [
      'a lease held elsewhere, which says nothing to the client',
      new LeaseHeldError('j1'),
      { status: 500, error: 'Internal server error' },
    ],
    ['a lease lost', new LeaseLostError('j1'), { status: 500, error: 'Internal server error' }],
    [
      'an HTTP error',
      new HttpError(416, 'Requested range not satisfiable', undefined, { 'Content-Range': 'bytes */9' }),
      { status: 416, error: 'Requested range not satisfiable', headers: { 'Content-Range': 'bytes */9' } },
    ],
    ['an unexpected error', new Error('secret internals'), { status: 500, error: 'Internal server error' }],
  ];

  for (const [name, error, expected] of cases) {
    it(`answers ${name}`, () => {
      const actual = toErrorResponse(error);
      // An absent field and one set to undefined read the same to the client.
      assert.deepEqual(JSON.parse(JSON.stringify(actual)), JSON.parse(JSON.stringify(expected)));
    });
  }
});
