import assert from 'node:assert/strict';
import { OpenApiMismatchError, assertMatchesOpenApi, matchOperation, validateResponse } from './response-validator.js';

const JOB_ID = '3b241101-e2bb-4255-8caf-4136c566a962';
const DOWNLOAD = `/api/v2/download/${JOB_ID}`;

const queued = {
  jobId: JOB_ID,
  status: 'IN_QUEUE',
  url: 'https://youtu.be/dQw4w9WgXcQ',
  format: '720',
  title: 'A video',
  duration: 213,
  language: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: null,
  completedAt: null,
};
const inProgress = { ...queued, status: 'IN_PROGRESS', language: 'en', startedAt: '2026-01-01T00:00:01.000Z' };
const completed = {
  ...inProgress,
  status: 'COMPLETED',
  actualFormat: '480',
  downloadUrl: 'https://files.example.com/files/abc/A%20video.mp4?expires=1767229200&signature=00ff',
  fileSize: 31_457_280,
  completedAt: '2026-01-01T00:00:09.000Z',
};
const failed = { ...inProgress, status: 'FAILED', errorCode: 'PRIVATE_VIDEO', completedAt: '2026-01-01T00:00:09.000Z' };

const balance = { granted: 1000, used: 20, remaining: 980, unlimited: false, resetsAt: 1767225600000 };
const account = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  plan: { id: 'starter', renewsAt: 1767225600000, canceledAt: null },
  balances: {
    download_count: balance,
    bandwidth_mb: balance,
    info: balance,
    channel_list: { ...balance, resetsAt: null },
  },
  subscriptions: { allowance: 10, held: 3 },
};

const valid = (method: string, path: string, status: number, body: unknown, headers?: Record<string, string>) =>
  assert.deepEqual(
    validateResponse(method, path, status, body, headers),
    [],
    `${method} ${path} ${status} ${JSON.stringify(body)}`,
  );

describe('response validation by the OpenAPI document', () => {
  describe('download jobs', () => {
    it('accepts each of the three shapes, optional fields present or not', () => {
      for (const body of [queued, inProgress, completed, failed]) valid('GET', DOWNLOAD, 200, body);
      const { errorCode: _code, ...failedWithoutCode } = failed;
      valid('GET', DOWNLOAD, 200, failedWithoutCode);
      const minimal = { jobId: JOB_ID, status: 'IN_QUEUE', title: 't', duration: 0, url: 'u', format: 'audio' };
      valid('GET', DOWNLOAD, 200, minimal);
    });

    it('rejects a completed job missing fileSize', () => {
      const { fileSize: _omitted, ...withoutSize } = completed;
      assert.deepEqual(validateResponse('GET', DOWNLOAD, 200, withoutSize), ['fileSize is required']);
    });

    it('rejects a pending job with an unknown status', () => {
      assert.deepEqual(validateResponse('GET', DOWNLOAD, 200, { ...queued, status: 'PAUSED' }), [
        'status must be one of: IN_QUEUE, IN_PROGRESS, COMPLETED, FAILED',
      ]);
      const { status: _status, ...withoutStatus } = queued;
      assert.deepEqual(validateResponse('GET', DOWNLOAD, 200, withoutStatus), [
        'status must be one of: IN_QUEUE, IN_PROGRESS, COMPLETED, FAILED',
      ]);
    });

    it('rejects fields that belong to another shape', () => {
      assert.deepEqual(validateResponse('GET', DOWNLOAD, 200, { ...queued, fileSize: 3 }), ['unknown field: fileSize']);
      assert.deepEqual(validateResponse('GET', DOWNLOAD, 200, { ...completed, errorCode: 'NETWORK_ERROR' }), [
        'unknown field: errorCode',
      ]);
    });

    it('rejects wrong types and values, listing every problem', () => {
      assert.deepEqual(
        validateResponse('GET', DOWNLOAD, 200, {
          ...failed,
          errorCode: 'OOPS',
          duration: 1.5,
          language: 5,
          startedAt: 'yesterday',
          createdAt: null,
        }),
        [
          'duration must be an integer >= 0',
          'language must be a string or null',
          'createdAt must be a string (an ISO 8601 date-time with a time zone)',
          'startedAt must be an ISO 8601 date-time with a time zone or null',
          'errorCode must be one of: AGE_RESTRICTED, MEMBERS_ONLY, PAYMENT_REQUIRED, PRIVATE_VIDEO, VIDEO_PREMIERE, GEO_RESTRICTED, VIDEO_PROCESSING, VIDEO_UNAVAILABLE, DRM_PROTECTED, VIDEO_NOT_FOUND, FORMAT_UNAVAILABLE, LIVE_STREAM_IN_PROGRESS, COPYRIGHTED_MUSIC, NO_DOWNLOAD_OPT_OUT, NETWORK_ERROR',
        ],
      );
      assert.deepEqual(
        validateResponse('GET', DOWNLOAD, 200, {
          ...completed,
          downloadUrl: 'not a url',
          fileSize: -1,
          actualFormat: '4k',
        }),
        [
          'actualFormat must be one of: 1080, 720, 480, 360, audio, audio-aac, audio-mp3',
          'downloadUrl must be an absolute URL',
          'fileSize must be an integer >= 0',
        ],
      );
      assert.deepEqual(validateResponse('GET', DOWNLOAD, 200, { ...failed, title: undefined }), ['title is required']);
      assert.deepEqual(validateResponse('GET', DOWNLOAD, 200, 'text'), ['response body must be a JSON object']);
    });

    it('accepts the submit answer and checks its status', () => {
      const accepted = {
        jobId: JOB_ID,
        title: 'A video',
        duration: 213,
        status: 'IN_QUEUE',
        message: `Poll GET /download/${JOB_ID}`,
      };
      valid('POST', '/api/v2/download', 200, accepted);
      assert.deepEqual(validateResponse('POST', '/api/v2/download', 200, { ...accepted, status: 'COMPLETED' }), [
        'status must be "IN_QUEUE"',
      ]);
    });
  });

  describe('errors', () => {
    it('checks error bodies against ApiError', () => {
      valid('GET', DOWNLOAD, 404, { error: 'Download job not found' });
      valid('POST', '/api/v2/download', 500, { error: 'Internal server error', details: 'extractor said no' });
      for (const status of [400, 401, 413, 415]) valid('POST', '/api/v2/download', status, { error: 'x' });
      assert.deepEqual(validateResponse('GET', DOWNLOAD, 404, { message: 'Job not found' }), [
        'error is required',
        'unknown field: message',
      ]);
      assert.deepEqual(validateResponse('GET', DOWNLOAD, 404, { error: 'x', details: 3 }), [
        'details must be a string',
      ]);
    });

    it('requires exactly "Credit limit reached" (or an account refusal) on 403 from /download and /info', () => {
      valid('POST', '/api/v2/download', 403, { error: 'Credit limit reached' });
      valid('POST', '/api/v2/info', 403, { error: 'Credit limit reached' });
      assert.deepEqual(validateResponse('POST', '/api/v2/download', 403, { error: 'Quota exceeded' }), [
        'error must be "Credit limit reached"',
        'error must match the pattern ^This (account is (closed$|suspended: )|API key is read-only: )',
        'response body must match one of the documented shapes',
      ]);
      // Or a suspended or closed account's refusal, on every route behind a key.
      valid('POST', '/api/v2/download', 403, { error: 'This account is suspended: unpaid. Contact support' });
      valid('GET', '/api/v2/me', 403, { error: 'This account is closed' });
      valid('POST', '/api/v2/list-channel', 403, { error: 'The channel_list add-on is not enabled for this account' });
    });

    it('checks integer pending-download headers on 429 in any letter case, and the rate-limit headers', () => {
      const body = { error: 'Too many downloads queued or in progress (100 of 100)' };
      valid('POST', '/api/v2/download', 429, body, {
        'X-Pending-Downloads': '100',
        'x-pending-downloads-limit': '100',
      });
      assert.deepEqual(
        validateResponse(
          'POST',
          '/api/v2/download',
          429,
          body,
          new Headers({ 'x-pending-downloads': '100', 'x-pending-downloads-limit': '100' }),
        ),
        [],
      );
      // The same status also answers a spent rate limit, so the pending headers are checked only when present.
      const limited = { error: 'Rate limit exceeded' };
      assert.deepEqual(
        validateResponse('POST', '/api/v2/download', 429, limited, {
          'Retry-After': '1',
          'RateLimit-Limit': '10',
          'RateLimit-Remaining': '0',
          'RateLimit-Reset': '1',
        }),
        [],
      );
      assert.deepEqual(
        validateResponse('GET', '/api/v2/me', 429, limited),
        ['GET /me does not document status 429'],
        'GET /me has no call limit',
      );
      assert.deepEqual(validateResponse('GET', '/api/v2/download/j1', 429, limited), [
        'missing header Retry-After',
        'missing header RateLimit-Limit',
        'missing header RateLimit-Remaining',
        'missing header RateLimit-Reset',
      ]);
      assert.deepEqual(
        validateResponse('POST', '/api/v2/download', 429, body, {
          'x-pending-downloads': 'many',
          'x-pending-downloads-limit': '1.5',
        }),
        [
          'header X-Pending-Downloads must be an integer >= 0',
          'header X-Pending-Downloads-Limit must be an integer >= 0',
        ],
      );
    });

    it('rejects a status code the operation does not document', () => {
      assert.deepEqual(validateResponse('GET', DOWNLOAD, 418, { error: 'teapot' }), [
        'GET /download/{jobId} does not document status 418',
      ]);
      assert.deepEqual(validateResponse('GET', '/api/v2/me', 404, { error: 'x' }), [
        'GET /me does not document status 404',
      ]);
      assert.deepEqual(validateResponse('POST', '/api/v2/download', 409, { error: 'x' }), [
        'POST /download does not document status 409',
      ]);
    });

    it('rejects a content type the response does not document', () => {
      assert.deepEqual(validateResponse('GET', DOWNLOAD, 200, queued, { 'content-type': 'text/html; charset=utf-8' }), [
        'content type text/html is not documented (expected application/json)',
      ]);
      valid('GET', DOWNLOAD, 200, queued, { 'content-type': 'application/json; charset=utf-8' });
    });
  });

  describe('info jobs', () => {
    const path = `/api/v2/info/${JOB_ID}`;

    it('accepts each shape', () => {
      valid('POST', '/api/v2/info', 200, { jobId: JOB_ID, status: 'pending' });
      valid('GET', path, 200, { jobId: JOB_ID, status: 'pending' });
      valid('GET', path, 200, { jobId: JOB_ID, status: 'success', result: { title: 't', duration: 5, url: 'u' } });
      valid('GET', path, 200, {
        jobId: JOB_ID,
        status: 'success',
        result: {
          title: 't',
          duration: 5,
          url: 'u',
          audio: [
            { type: 'original', language: 'en' },
            { type: 'dubbed', language: null },
          ],
        },
      });
      valid('GET', path, 200, {
        jobId: JOB_ID,
        status: 'failed',
        error: 'The video is private',
        errorCode: 'PRIVATE_VIDEO',
      });
      valid('GET', path, 200, { jobId: JOB_ID, status: 'failed', error: 'Something broke' });
    });

    it('rejects broken shapes', () => {
      assert.deepEqual(validateResponse('POST', '/api/v2/info', 200, { jobId: 'not-a-uuid', status: 'pending' }), [
        'jobId must be a UUID',
      ]);
      assert.deepEqual(validateResponse('GET', path, 200, { jobId: JOB_ID, status: 'failed' }), ['error is required']);
      assert.deepEqual(validateResponse('GET', path, 200, { jobId: JOB_ID, status: 'success' }), [
        'result is required',
      ]);
      assert.deepEqual(validateResponse('GET', path, 200, { jobId: JOB_ID, status: 'done' }), [
        'status must be one of: pending, success, failed',
      ]);
      assert.deepEqual(
        validateResponse('GET', path, 200, {
          jobId: JOB_ID,
          status: 'success',
          result: { title: 't', duration: 5, url: 'u', audio: [{ type: 'remix' }] },
        }),
        ['result.audio[0].language is required', 'result.audio[0].type must be one of: original, dubbed'],
      );
    });
  });

  describe('client-download jobs', () => {
    const path = `/api/v2/client-download/${JOB_ID}`;
    const video = {
      url: 'https://cdn.example.com/v.mp4',
      type: 'video',
      hasAudio: true,
      width: 1280,
      height: 720,
      sizeBytes: 1000,
    };
    const audio = { url: 'https://cdn.example.com/a.m4a', type: 'audio', hasAudio: true, audioBitrate: 128 };
    const info = {
      title: 't',
      url: 'https://www.instagram.com/reel/abc/',
      duration: 12.5,
      downloadLinks: [video, audio],
      description: 'd',
      author: 'a',
      authorUrl: 'https://www.instagram.com/a',
      thumbnailUrl: 'https://cdn.example.com/t.jpg',
    };

    it('accepts each shape', () => {
      valid('POST', '/api/v2/client-download', 200, { jobId: JOB_ID, status: 'pending' });
      valid('GET', path, 200, { jobId: JOB_ID, status: 'pending' });
      valid('GET', path, 200, { jobId: JOB_ID, status: 'success', result: info });
      valid('GET', path, 200, {
        jobId: JOB_ID,
        status: 'success',
        result: { title: 't', url: 'u', duration: 1, downloadLinks: [] },
      });
      valid('GET', path, 200, { jobId: JOB_ID, status: 'failed', error: 'Unsupported link' });
    });

    it('rejects broken shapes', () => {
      assert.deepEqual(
        validateResponse('GET', path, 200, { jobId: JOB_ID, status: 'failed', error: 'x', errorCode: 'PRIVATE_VIDEO' }),
        ['unknown field: errorCode'],
      );
      assert.deepEqual(
        validateResponse('GET', path, 200, {
          jobId: JOB_ID,
          status: 'success',
          result: {
            ...info,
            downloadLinks: [
              { ...audio, width: 3 },
              { ...video, audioBitrate: 9 },
            ],
          },
        }),
        [
          'result.downloadLinks[0].width is not allowed here',
          'result.downloadLinks[1].audioBitrate is not allowed here',
        ],
      );
      assert.deepEqual(
        validateResponse('GET', path, 200, {
          jobId: JOB_ID,
          status: 'success',
          result: { ...info, downloadLinks: [{ url: 'x', type: 'image' }] },
        }),
        [
          'result.downloadLinks[0].hasAudio is required',
          'result.downloadLinks[0].url must be an absolute URL',
          'result.downloadLinks[0].type must be one of: video, audio',
        ],
      );
    });
  });

  describe('channel listing', () => {
    const listing = {
      id: 'UC123',
      title: 'Example - Videos',
      channel: 'Example',
      channel_id: 'UC123',
      channel_url: 'https://www.youtube.com/channel/UC123',
      _type: 'playlist',
      entries: [
        {
          id: 'dQw4w9WgXcQ',
          title: 'One',
          url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
          duration: 212.0,
          view_count: 10,
          uploader: 'Example',
          ie_key: 'Youtube',
        },
        {
          id: 'abc',
          title: 'Upcoming',
          url: 'https://www.youtube.com/watch?v=abc',
          duration: null,
          view_count: null,
          uploader: 'Example',
        },
        { id: 'short', title: 'A short', url: 'https://www.youtube.com/shorts/short', uploader: 'Example' },
      ],
    };

    it('accepts the passed-through listing with its extra properties', () => {
      valid('POST', '/api/v2/list-channel', 200, listing);
    });

    it('rejects a listing without entries or with mistyped ones', () => {
      const { entries: _entries, ...withoutEntries } = listing;
      assert.deepEqual(validateResponse('POST', '/api/v2/list-channel', 200, withoutEntries), ['entries is required']);
      assert.deepEqual(
        validateResponse('POST', '/api/v2/list-channel', 200, {
          ...listing,
          entries: [{ id: 1, title: 't', url: 'u', view_count: 1.5, uploader: 'x' }],
        }),
        ['entries[0].id must be a string', 'entries[0].view_count must be an integer or null'],
      );
      // The service fills an uploader the extractor left out, so an entry without one is the service's fault.
      assert.deepEqual(
        validateResponse('POST', '/api/v2/list-channel', 200, {
          ...listing,
          entries: [{ id: 'a', title: 't', url: 'u', uploader: null }],
        }),
        ['entries[0].uploader must be a string'],
      );
      assert.deepEqual(
        validateResponse('POST', '/api/v2/list-channel', 200, {
          ...listing,
          entries: [{ id: 'a', title: 't', url: 'u' }],
        }),
        ['entries[0].uploader is required'],
      );
    });
  });

  describe('account', () => {
    it('accepts an account with and without add-on balances', () => {
      valid('GET', '/api/v2/me', 200, account);
      const free = {
        ...account,
        plan: { id: 'free', renewsAt: null, canceledAt: null },
        balances: { download_count: balance, bandwidth_mb: balance, info: { ...balance, unlimited: true } },
      };
      valid('GET', '/api/v2/me', 200, free);
    });

    it('rejects an unknown plan, a missing or unknown balance, and incomplete balances', () => {
      assert.deepEqual(
        validateResponse('GET', '/api/v2/me', 200, { ...account, plan: { ...account.plan, id: 'platinum' } }),
        ['plan.id must be one of: free, starter, growth, scale, custom'],
      );
      const { info: _info, ...balancesWithoutInfo } = account.balances;
      assert.deepEqual(validateResponse('GET', '/api/v2/me', 200, { ...account, balances: balancesWithoutInfo }), [
        'balances.info is required',
      ]);
      assert.deepEqual(
        validateResponse('GET', '/api/v2/me', 200, { ...account, balances: { ...account.balances, minutes: balance } }),
        ['unknown field: balances.minutes'],
      );
      const { resetsAt: _resetsAt, ...withoutReset } = balance;
      assert.deepEqual(
        validateResponse('GET', '/api/v2/me', 200, {
          ...account,
          balances: { ...account.balances, bandwidth_mb: withoutReset },
        }),
        ['balances.bandwidth_mb.resetsAt is required'],
      );
      assert.deepEqual(
        validateResponse('GET', '/api/v2/me', 200, { ...account, plan: { id: 'starter', renewsAt: '2026-02-01' } }),
        ['plan.canceledAt is required', 'plan.renewsAt must be a number or null'],
      );
    });
  });

  describe('paths', () => {
    it('strips each base path, legacy ones included, and query strings', () => {
      for (const prefix of ['/api/v2', '/api/v1', '/v2'])
        valid('GET', `${prefix}/download/${JOB_ID}?verbose=1`, 200, completed);
    });

    it('takes templates and paths without a prefix', () => {
      valid('GET', '/download/{jobId}', 200, completed);
      valid('GET', `/download/${JOB_ID}`, 200, completed);
      valid('GET', '/api/v2/download/{jobId}', 200, completed);
      assert.notDeepEqual(validateResponse('GET', '/download/{jobId}', 200, { ...completed, fileSize: undefined }), []);
    });

    it('matches methods in any letter case', () => {
      valid('get', DOWNLOAD, 200, completed);
      assert.deepEqual(matchOperation('post', '/api/v1/download'), {
        method: 'POST',
        template: '/download',
        operationId: 'submitDownload',
      });
      assert.deepEqual(matchOperation('GET', '/v2/info/abc'), {
        method: 'GET',
        template: '/info/{jobId}',
        operationId: 'getInfo',
      });
      assert.equal(matchOperation('DELETE', '/api/v2/me'), undefined);
      assert.equal(matchOperation('GET', '/healthz'), undefined);
    });

    it('leaves paths outside the API prefixes to others', () => {
      for (const path of ['/healthz', '/readyz', '/metrics', '/files/abc/clip.mp4?expires=1&signature=00'])
        assert.deepEqual(validateResponse('GET', path, 200, 'ok'), [], path);
      assert.deepEqual(
        validateResponse('GET', '/files/abc/clip.mp4', 403, { error: 'This download link is invalid or has expired' }),
        [],
      );
    });

    it('expects an ApiError with an error status from routes under a prefix that the document lacks', () => {
      valid('GET', '/api/v2/nowhere', 404, { error: 'No such endpoint: GET /api/v2/nowhere' });
      valid('GET', '/api/v2/nowhere', 401, { error: 'Invalid API key' });
      valid('DELETE', '/api/v2/me', 405, { error: 'Method not allowed' });
      assert.deepEqual(validateResponse('GET', '/api/v2/nowhere', 404, { message: 'nope' }), [
        'error is required',
        'unknown field: message',
      ]);
      assert.deepEqual(validateResponse('GET', '/api/v2/nowhere', 200, {}), [
        'GET /nowhere is not in the OpenAPI document, yet answered 200',
      ]);
    });

    it('accepts the document served at /openapi.json', async () => {
      const { OPENAPI_DOCUMENT: openApiDocument } = await import('../../infrastructure/features/features.js');
      valid('GET', '/api/v2/openapi.json', 200, JSON.parse(JSON.stringify(openApiDocument)));
    });
  });

  describe('assertMatchesOpenApi', () => {
    it('passes a conforming response silently', () => {
      assert.doesNotThrow(() => assertMatchesOpenApi('GET', DOWNLOAD, 200, completed));
      assert.doesNotThrow(() =>
        assertMatchesOpenApi(
          'POST',
          '/api/v2/download',
          429,
          { error: 'x' },
          { 'x-pending-downloads': '1', 'x-pending-downloads-limit': '100' },
        ),
      );
    });

    it('throws a readable error naming the request, every problem and the body', () => {
      const { fileSize: _omitted, ...withoutSize } = completed;
      assert.throws(
        () => assertMatchesOpenApi('GET', DOWNLOAD, 200, { ...withoutSize, extra: true }),
        (error: unknown) => {
          assert.ok(error instanceof OpenApiMismatchError);
          assert.deepEqual(error.problems, ['fileSize is required', 'unknown field: extra']);
          assert.equal(
            error.message,
            `GET ${DOWNLOAD} -> 200 does not match the OpenAPI document:\n  - fileSize is required\n  - unknown field: extra\n  body: ${JSON.stringify({ ...withoutSize, extra: true })}`,
          );
          return true;
        },
      );
    });

    it('shortens a huge body in the message', () => {
      assert.throws(
        () => assertMatchesOpenApi('GET', DOWNLOAD, 200, { ...queued, title: 'x'.repeat(10_000), status: 'PAUSED' }),
        (error: Error) => error.message.length < 2300 && error.message.endsWith('…'),
      );
    });
  });
});
