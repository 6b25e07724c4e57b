import { DOWNLOAD_ERROR_CODES } from '../../../domain/download-error-code.js';
import { MEDIA_FORMATS } from '../../../domain/media-format.js';
import { jobWatchingPaths, jobWatchingSchemas } from './job-watching-paths.js';

/**
 * The OpenAPI 3.1 description of the API, written by hand from the contract.
 * It is the single source of request validation (request-validator.ts) and of
 * the response shapes tests check (response-validator.ts), and clients read it
 * at /api/v2/openapi.json. Signed file links (/files/...) and the operational
 * endpoints (/healthz, /readyz, /metrics) live outside the API prefixes and
 * are deliberately not described here.
 */

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const jsonContent = (schema: object, example?: unknown) => ({
  'application/json': example === undefined ? { schema } : { schema, example },
});

const errorResponse = (description: string, example: string, schemaName = 'ApiError') => ({
  description,
  content: jsonContent(schemaRef(schemaName), { error: example }),
});

const dateTime = { type: 'string', format: 'date-time' };
const dateTimeOrNull = { type: ['string', 'null'], format: 'date-time' };
const seconds = (description: string) => ({ type: 'integer', minimum: 0, description });

/** Fields every download job shape shares; each shape adds its own and lists what is required. */
const downloadJobFields = {
  jobId: { type: 'string', description: 'Job identifier, as returned by POST /download.' },
  url: { type: 'string', description: 'The submitted URL, as given.' },
  format: { ...schemaRef('MediaFormat'), description: 'The format requested.' },
  title: { type: 'string', description: 'Video title.' },
  duration: seconds('Full video duration in seconds, whatever startTime/endTime were requested.'),
  language: {
    type: ['string', 'null'],
    description: 'The language requested; null when none was. The language delivered may differ through the fallback chain.',
  },
  createdAt: { ...dateTime, description: 'Submission time.' },
  startedAt: { ...dateTimeOrNull, description: 'When processing started; null while queued (and for a job that failed before it started).' },
  completedAt: { ...dateTimeOrNull, description: 'When the job reached COMPLETED or FAILED; null until then.' },
};

const jobIdParameter = (description: string) => ({
  name: 'jobId',
  in: 'path',
  required: true,
  description,
  // Identifiers issued by the service are UUIDs; anything outside this shape cannot name a job.
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' },
});

const responses = {
  unauthorized: {
    description:
      'The API key is missing (send `Authorization: Bearer <API_KEY>`) or not recognised (`Invalid API key`). Never charged.',
    content: jsonContent(schemaRef('ApiError'), { error: 'Invalid API key' }),
  },
  creditLimitReached: errorResponse(
    'The plan’s bandwidth allowance (plus any overage allowance) or a request quota is used up. `error` is exactly `Credit limit reached`. ' +
      'Not charged; cleared by upgrading the plan or at the next billing cycle (see GET /me for the balances).',
    'Credit limit reached',
    'CreditLimitError',
  ),
  addOnOrCreditLimit: errorResponse(
    'The add-on is not enabled for the account (`error` names it: `The <add-on> add-on is not enabled for this account`), ' +
      'or its quota is used up (`error` is then exactly `Credit limit reached`). Checked before anything is looked up; not charged, and no job is created.',
    'The channel_list add-on is not enabled for this account',
  ),
  payloadTooLarge: errorResponse('The request body is larger than the server accepts (64 KiB by default).', 'Request body too large'),
  unsupportedMediaType: errorResponse('The request body is not sent as `application/json`.', 'Content-Type must be application/json'),
  serverError: {
    description: 'Unexpected server error. `details` may carry the extractor’s message. Retry after a short backoff.',
    content: jsonContent(schemaRef('ApiError'), { error: 'Internal server error' }),
  },
};

const badRequest = (description: string, example: string) => errorResponse(description, example);

/** The per-second request allowance of a key or account (an extension: the contract shows no rate limits). */
const rateLimitHeaders = (required: boolean) => ({
  'Retry-After': { required, description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Limit': { required, description: 'Requests allowed per window of the bucket that refused (key or account).', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Remaining': { required, description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { required, description: 'Seconds until the window resets.', schema: { type: 'integer', minimum: 0 } },
});
const rateLimitedDescription =
  'Too many requests per second for this API key or for its account (see `RateLimit-*`; configured per plan). Not charged. Retry after `Retry-After` seconds.';
const rateLimited = {
  description: rateLimitedDescription,
  headers: rateLimitHeaders(true),
  content: jsonContent(schemaRef('ApiError'), { error: 'Rate limit exceeded: at most 10 requests per second for this API key; retry after 1 s' }),
};

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Video Download Service API',
    version: '2.0.0',
    summary: 'Server-side video downloads with job polling and webhooks, video metadata, client download links, channel listing and account balances.',
    description: [
      'All requests and responses are JSON. Every endpoint needs the header `Authorization: Bearer <API_KEY>`.',
      '',
      '**Billing.** Only bandwidth is charged: each completed download counts its actual file size, at least 20 MB, against the plan’s monthly allowance. ' +
        'Submitting is free, failed jobs are never charged, and neither are `401`, `403` or `429` responses. ' +
        'Download and info counts are tracked against per-plan quotas; `GET /me` shows every balance.',
      '',
      '**Jobs.** Downloads, info lookups and client-download lookups run in the background: submit, then poll the job (or pass a `webhookUrl` to `POST /download`). ' +
        'Jobs belong to the account that submitted them; another account’s job reads as `404`.',
      '',
      '**Timestamps.** `createdAt`, `startedAt` and `completedAt` are ISO 8601 date-times; timestamps in `GET /me` are Unix milliseconds.',
    ].join('\n'),
  },
  servers: [
    { url: '/api/v2', description: 'Current base path (API version 2.0).' },
    { url: '/api/v1', description: 'Legacy base path; serves the same API and keeps working.' },
    { url: '/v2', description: 'Legacy base path; serves the same API and keeps working.' },
  ],
  security: [{ bearerAuth: [] }],
  tags: [
    { name: 'Downloads', description: 'Server-side downloads of a video or its audio, polled or delivered by webhook.' },
    { name: 'Video info', description: 'Title, duration and audio tracks of a video, without downloading it.' },
    { name: 'Client downloads', description: 'Add-on: direct media links the client fetches itself.' },
    { name: 'Channels', description: 'Add-on: recent videos of a channel.' },
    { name: 'Account', description: 'Plan and live balances.' },
    { name: 'Meta', description: 'This document.' },
  ],
  paths: {
    '/download': {
      post: {
        operationId: 'submitDownload',
        tags: ['Downloads'],
        summary: 'Queue a download of a video or its audio',
        description: [
          'Queues a background job that fetches the video (or only its audio) and produces a file. The answer comes at once with status `IN_QUEUE`; ' +
            'poll `GET /download/{jobId}` until the status is `COMPLETED` or `FAILED`, or pass a `webhookUrl` to be told.',
          '',
          'Submitting is free. When the job completes, its actual file size (at least 20 MB) is charged against the bandwidth allowance; a failed job costs nothing.',
          '',
          'Refusals: `400` for a missing or malformed field, an unsupported URL, a rejected `webhookUrl`, times outside the video, ' +
            'a live stream still in progress or a video that cannot be downloaded; `403` when the plan’s limits are used up; ' +
            '`429` when the account already has 100 downloads queued or in progress.',
          '',
          'Retrying safely: send an `Idempotency-Key` header. A repeat with the same key and the same request, within 24 hours of the first one ' +
            'that was admitted, gets that first answer (same `jobId`) and creates nothing; the same key with a different request gets `422`. ' +
            'Keys belong to the account. A request that was refused is not remembered, so its key may be used again.',
        ].join('\n'),
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: 'Any 1 to 255 visible ASCII characters, unique per intended download (a UUID is a good choice). Remembered for 24 hours.',
            schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: schemaRef('SubmitDownloadRequest'),
              examples: {
                audio: { summary: 'Best audio, the default format', value: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } },
                clip: {
                  summary: 'A 720p clip from 0:30 to 1:00, with a webhook',
                  value: { url: 'https://youtu.be/dQw4w9WgXcQ', format: '720', startTime: 30, endTime: 60, webhookUrl: 'https://hooks.example.com/video-done' },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'The job is queued. Nothing is charged yet.',
            content: jsonContent(schemaRef('SubmitDownloadResponse'), {
              jobId: '3b241101-e2bb-4255-8caf-4136c566a962',
              title: 'Never Gonna Give You Up',
              duration: 213,
              status: 'IN_QUEUE',
              message: 'Download queued; poll GET /download/3b241101-e2bb-4255-8caf-4136c566a962 for its status',
            }),
          },
          '400': badRequest(
            'A missing or malformed field, an unsupported URL, a rejected `webhookUrl`, times outside the video, a live stream still in progress, ' +
              'or a video that cannot be downloaded (its DownloadErrorCode is then in `details`). The message names the problem.',
            'format must be one of: 1080, 720, 480, 360, audio, audio-aac, audio-mp3',
          ),
          '401': responses.unauthorized,
          '403': responses.creditLimitReached,
          '413': responses.payloadTooLarge,
          '415': responses.unsupportedMediaType,
          '422': errorResponse(
            'The `Idempotency-Key` was already used by this account, within 24 hours, for a different request. Nothing was queued.',
            'This Idempotency-Key was already used with a different request; use a new key for a new request',
          ),
          '429': {
            description:
              'The account already has 100 downloads queued or in progress. Not charged. Resubmit after some jobs reach `COMPLETED` or `FAILED`. ' +
              'Also, with `Retry-After` and an `error` saying submissions are waiting for the video platform, when too many of the account’s (or everyone’s) submissions are being looked up now. ' +
              `Or: ${rateLimitedDescription}`,
            headers: {
              'X-Pending-Downloads': { required: false, description: 'Downloads the account has queued or in progress now; always sent with the pending-downloads 429.', schema: { type: 'integer', minimum: 0 } },
              'X-Pending-Downloads-Limit': { required: false, description: 'The most the account may have queued or in progress; always sent with the pending-downloads 429.', schema: { type: 'integer', minimum: 0 } },
              ...rateLimitHeaders(false),
            },
            content: jsonContent(schemaRef('ApiError'), { error: 'Too many downloads queued or in progress (100 of 100)' }),
          },
          '500': responses.serverError,
        },
      },
    },
    '/download/{jobId}': {
      get: {
        operationId: 'getDownload',
        tags: ['Downloads'],
        summary: 'Poll a download job',
        description:
          'Returns the job in one of three shapes selected by `status`: pending (`IN_QUEUE`, `IN_PROGRESS`), `COMPLETED` (with `downloadUrl`, `fileSize` and `actualFormat`) ' +
          'or `FAILED` (with an optional `errorCode`). `COMPLETED` and `FAILED` are final. Free.',
        parameters: [jobIdParameter('The `jobId` returned by POST /download.')],
        responses: {
          '200': { description: 'The job.', content: jsonContent(schemaRef('DownloadJob')) },
          '401': responses.unauthorized,
          '429': rateLimited,
          '404': errorResponse('No such job: it does not exist, has expired, or belongs to another account.', 'Download job not found'),
          '500': responses.serverError,
        },
      },
      delete: {
        operationId: 'cancelDownload',
        tags: ['Downloads'],
        summary: 'Cancel a queued or running download job (an extension to the contract)',
        description:
          'Ends a job that is `IN_QUEUE` or `IN_PROGRESS`: its extractor processes are stopped, it becomes `FAILED` without an `errorCode`, nothing is charged, ' +
          'and its `download.failed` webhook is sent as for any failure. Answers the job as `GET /download/{jobId}` would afterwards.',
        parameters: [jobIdParameter('The `jobId` returned by POST /download.')],
        responses: {
          '200': { description: 'The job, now `FAILED`.', content: jsonContent(schemaRef('DownloadJob')) },
          '401': responses.unauthorized,
          '429': rateLimited,
          '404': errorResponse('No such job: it does not exist, has expired, or belongs to another account.', 'Download job not found'),
          '409': errorResponse('The job is already `COMPLETED` or `FAILED`.', 'Download job 3b241101-e2bb-4255-8caf-4136c566a962 is already COMPLETED and cannot be cancelled'),
          '500': responses.serverError,
        },
      },
    },
    ...jobWatchingPaths({ jobIdParameter, unauthorized: responses.unauthorized, rateLimited, serverError: responses.serverError }),
    '/info': {
      post: {
        operationId: 'submitInfo',
        tags: ['Video info'],
        summary: 'Queue a lookup of a video’s title, duration and audio tracks',
        description:
          'Queues a job that resolves the video’s title and duration, and its audio tracks (original and dubbed languages) when `includeAudioTracks` is true, without downloading. ' +
          'Poll `GET /info/{jobId}`; the job is kept for 1 hour after submission. One info request is counted against the quota when the job succeeds; no bandwidth. ' +
          'The request is held against the quota while the job is pending, so `403` answers once succeeded and pending jobs use it up.',
        requestBody: {
          required: true,
          content: jsonContent(schemaRef('SubmitInfoRequest'), { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', includeAudioTracks: true }),
        },
        responses: {
          '200': {
            description: 'The job is queued.',
            content: jsonContent(schemaRef('SubmitInfoResponse'), { jobId: '9f1c2d4e-5b6a-4c7d-8e9f-0a1b2c3d4e5f', status: 'pending' }),
          },
          '400': badRequest('A missing or malformed field, or an unsupported URL. The message names the problem.', 'url is required'),
          '401': responses.unauthorized,
          '429': rateLimited,
          '403': responses.creditLimitReached,
          '413': responses.payloadTooLarge,
          '415': responses.unsupportedMediaType,
          '500': responses.serverError,
        },
      },
    },
    '/info/{jobId}': {
      get: {
        operationId: 'getInfo',
        tags: ['Video info'],
        summary: 'Poll a video info job',
        description:
          'Returns the job in one of three shapes selected by `status`: `pending`, `success` (with `result`) or `failed` (with `error` and, for recognised conditions, `errorCode`). ' +
          'A failure without `errorCode`, or with `NETWORK_ERROR`, is worth retrying. Free.',
        parameters: [jobIdParameter('The `jobId` returned by POST /info.')],
        responses: {
          '200': { description: 'The job.', content: jsonContent(schemaRef('InfoJob')) },
          '401': responses.unauthorized,
          '429': rateLimited,
          '404': errorResponse('No such job: it does not exist, is older than 1 hour, or belongs to another account.', 'Info job not found'),
          '500': responses.serverError,
        },
      },
    },
    '/list-channel': {
      post: {
        operationId: 'listChannel',
        tags: ['Channels'],
        summary: 'List recent videos of a channel (add-on)',
        description:
          'Returns the most recent videos of a channel on the video platform, as the media extractor’s flat listing passed through (extra properties may appear). ' +
          'Higher `maxVideos` take proportionally longer. Counts 1 unit of the `channel_list` add-on per 10 items returned, rounded up; no bandwidth. ' +
          'A listing that could cost more than the units left (`maxVideos` / 10, rounded up) is refused with `403` before the channel is read; a failed listing costs nothing.',
        requestBody: {
          required: true,
          content: jsonContent(schemaRef('ListChannelRequest'), { channelUrl: 'https://www.youtube.com/@example', maxVideos: 20 }),
        },
        responses: {
          '200': { description: 'The listing.', content: jsonContent(schemaRef('ChannelListing')) },
          '400': badRequest(
            'A missing or malformed field, an unsupported channel URL, or a channel the platform refuses for a lasting reason (such as one that does not exist; its DownloadErrorCode is then in `details`). ' +
              'The message names the problem.',
            'maxVideos must be an integer from 1 to 1000',
          ),
          '401': responses.unauthorized,
          '429': {
            description:
              `${rateLimitedDescription} ` +
              'Also when too many channel listings of this account, or of all accounts, are under way: then without `RateLimit-*` unless a rate limit applies, answered at once, nothing reserved or charged.',
            headers: { ...rateLimitHeaders(false), 'Retry-After': { required: true, description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } } },
            content: jsonContent(schemaRef('ApiError'), { error: 'Too many channel listings of this account are under way; retry after 5 s' }),
          },
          '403': responses.addOnOrCreditLimit,
          '413': responses.payloadTooLarge,
          '415': responses.unsupportedMediaType,
          '500': responses.serverError,
        },
      },
    },
    '/client-download': {
      post: {
        operationId: 'submitClientDownload',
        tags: ['Client downloads'],
        summary: 'Queue a lookup of direct media links (add-on)',
        description: [
          'Queues a job that resolves direct media links for a video, which the client then fetches itself. Poll `GET /client-download/{jobId}`; the job is kept for 1 hour after submission. ' +
            'Uses the `client_download` add-on: one unit when the job succeeds, nothing when it fails.',
          '',
          'Supported links:',
          '- video platform: `/watch?v=<id>`, short host `/<id>`, `/live/<id>`, `/shorts/<id>`',
          '- photo/video sharing platform: `/p/<id>`, `/reel/<id>`, `/reels/<id>`, `/tv/<id>`',
          '- short-video platform: `/@<user>/video/<id>`, short host `/<id>`',
          '- social network: `/.../videos/<id>`, `/.../watch/<id>`, `/.../reel/<id>`, short host `/<id>`',
        ].join('\n'),
        requestBody: { required: true, content: jsonContent(schemaRef('SubmitClientDownloadRequest'), { url: 'https://www.youtube.com/shorts/dQw4w9WgXcQ' }) },
        responses: {
          '200': {
            description: 'The job is queued.',
            content: jsonContent(schemaRef('SubmitClientDownloadResponse'), { jobId: '0d9c8b7a-6f5e-4d3c-8b1a-9f8e7d6c5b4a', status: 'pending' }),
          },
          '400': badRequest('A missing or malformed field, or a link the service does not support. The message names the problem.', 'url is required'),
          '401': responses.unauthorized,
          '429': rateLimited,
          '403': responses.addOnOrCreditLimit,
          '413': responses.payloadTooLarge,
          '415': responses.unsupportedMediaType,
          '500': responses.serverError,
        },
      },
    },
    '/client-download/{jobId}': {
      get: {
        operationId: 'getClientDownload',
        tags: ['Client downloads'],
        summary: 'Poll a client-download job',
        description: 'Returns the job in one of three shapes selected by `status`: `pending`, `success` (with `result`) or `failed` (with `error`). Free.',
        parameters: [jobIdParameter('The `jobId` returned by POST /client-download.')],
        responses: {
          '200': { description: 'The job.', content: jsonContent(schemaRef('ClientDownloadJob')) },
          '401': responses.unauthorized,
          '429': rateLimited,
          '404': errorResponse('No such job: it does not exist, has expired, or belongs to another account.', 'Client-download job not found'),
          '500': responses.serverError,
        },
      },
    },
    '/me': {
      get: {
        operationId: 'getMe',
        tags: ['Account'],
        summary: 'The account, its plan and live balances',
        description: 'No call limit, never charged. Balances are keyed by feature: `download_count`, `bandwidth_mb` and `info` always, `client_download` and `channel_list` where the add-on is enabled.',
        responses: {
          '200': { description: 'The account.', content: jsonContent(schemaRef('AccountResponse')) },
          '401': responses.unauthorized,
          '500': responses.serverError,
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['Meta'],
        summary: 'This document',
        description: 'Served without an API key, so client generators and API browsers can fetch it.',
        security: [],
        responses: {
          '200': {
            description: 'The OpenAPI 3.1 document.',
            content: jsonContent({ type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { type: 'string' } } }),
          },
        },
      },
    },
  },
  webhooks: {
    'download.finished': {
      post: {
        operationId: 'downloadFinished',
        tags: ['Downloads'],
        summary: 'Sent to the webhookUrl of a download job when it reaches COMPLETED or FAILED',
        description: [
          'Sent once per job (at least once; use `jobId` as the idempotency key) to the `webhookUrl` given on POST /download. ' +
            'The body is what GET /download/{jobId} returns for the job at that moment: the completed or the failed shape.',
          '',
          '**Signature.** `X-Service-Signature` is `t=<unix seconds>,v1=<hex>`, where `v1` is the lowercase hex HMAC-SHA256, keyed with the account’s API key, ' +
            'of the text `<t>.<raw request body>`. Compute it over the raw bytes before parsing the JSON, compare in constant time, ' +
            'and reject timestamps more than a few minutes old (300 seconds in the reference check).',
          '',
          '**Delivery.** Any 2xx answer within 15 seconds acknowledges it. Anything else (other status, redirect, timeout, connection error) is retried after ' +
            '30s, 1m, 2m, 4m, 8m, 16m, 32m, 64m and 128m: 10 attempts over about 4 hours. A `410` answer stops the retries at once. Redirects are not followed.',
        ].join('\n'),
        security: [],
        parameters: [
          { name: 'X-Service-Event', in: 'header', required: true, description: 'Mirrors `status`.', schema: { type: 'string', enum: ['download.completed', 'download.failed'] } },
          { name: 'X-Service-Job-Id', in: 'header', required: true, description: 'The `jobId`.', schema: { type: 'string' } },
          { name: 'X-Service-Attempt', in: 'header', required: true, description: 'Delivery attempt, starting at 1.', schema: { type: 'integer', minimum: 1, maximum: 10 } },
          {
            name: 'X-Service-Signature',
            in: 'header',
            required: true,
            description: '`t=<unix seconds>,v1=<lowercase hex HMAC-SHA256>`.',
            schema: { type: 'string', pattern: '^t=[0-9]+,v1=[0-9a-f]{64}$' },
          },
        ],
        requestBody: { required: true, content: jsonContent(schemaRef('DownloadFinishedEvent')) },
        responses: {
          '2XX': { description: 'Acknowledged; no further attempts.' },
          '410': { description: 'The receiver wants no more deliveries for this job; retries stop at once.' },
          default: { description: 'A failed attempt; retried with backoff until 10 attempts have been made.' },
        },
      },
    },
  },
  components: {
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: '`Authorization: Bearer <API_KEY>` with the API key issued to the account. The same key signs the webhooks sent to the account.',
      },
    },
    schemas: {
      MediaFormat: {
        type: 'string',
        enum: [...MEDIA_FORMATS],
        description: [
          '- `1080`, `720`, `480`, `360`: vertical resolution, delivered as MP4; may be capped down for very long videos so the file fits the plan’s per-file size limit (see `actualFormat`).',
          '- `audio` (default): the best audio stream the platform serves, in its own container (usually M4A/AAC or WebM/Opus), not re-encoded.',
          '- `audio-aac`: the platform’s AAC stream (M4A, about 128 kbps), not re-encoded; when there is none the best audio is delivered and `actualFormat` is `audio`.',
          '- `audio-mp3`: MP3 at 320 kbps constant bitrate; sample rate and channel layout are kept.',
        ].join('\n'),
      },
      DownloadErrorCode: {
        type: 'string',
        enum: [...DOWNLOAD_ERROR_CODES],
        description:
          'Why a job failed. Every value except `NETWORK_ERROR` describes the video or the service’s policy: retrying gives the same result. ' +
          '`NETWORK_ERROR` is a transient failure on the service’s side: retry after a short backoff. ' +
          '`VIDEO_PREMIERE` and `LIVE_STREAM_IN_PROGRESS` clear once the premiere starts or the stream ends.',
      },
      DownloadJobStatus: {
        type: 'string',
        enum: ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED', 'FAILED'],
        description: '`IN_QUEUE` → `IN_PROGRESS` → `COMPLETED` or `FAILED`; the last two are final.',
      },
      SubmitDownloadRequest: {
        type: 'object',
        required: ['url'],
        additionalProperties: false,
        properties: {
          url: {
            type: 'string',
            maxLength: 2048,
            description:
              'The video: `https://{video_host}/watch?v=<id>`, `https://{short_host}/<id>` or `https://{video_host}/live/<id>`, at most 2048 characters, ' +
              'with its host written plainly (no backslashes, percent-encoding or numeric forms) and one `v`. The job reports it back as given; the platform is asked for `https://{video_host}/watch?v=<id>`.',
            examples: ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://youtu.be/dQw4w9WgXcQ'],
          },
          format: { ...schemaRef('MediaFormat'), default: 'audio' },
          startTime: {
            type: 'integer',
            minimum: 0,
            // A bound far beyond any video, so that a JSON number too large for a double (1e400, read as Infinity) is refused.
            maximum: 2147483647,
            description: 'Start of the clip in seconds, inclusive; must be less than the duration. Omitted: from the beginning.',
          },
          endTime: {
            type: 'integer',
            minimum: 1,
            maximum: 2147483647,
            description: 'End of the clip in seconds, exclusive; at most the duration and greater than `startTime`. Omitted: to the end.',
          },
          language: {
            type: 'string',
            maxLength: 35,
            pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$',
            description:
              'BCP-47 tag of the audio language wanted. When the video has no such track: any track whose tag starts with it (`en` matches `en-US`), ' +
              'then the original audio. Omitted: the original audio.',
            examples: ['en', 'en-US', 'pt-BR'],
          },
          webhookUrl: {
            type: 'string',
            format: 'uri',
            maxLength: 2048,
            description:
              'Public `http://` or `https://` URL that receives the `download.finished` webhook. Loopback, private-network and single-label host names are refused with `400`; ' +
              'redirects are not followed.',
          },
        },
      },
      SubmitDownloadResponse: {
        type: 'object',
        required: ['jobId', 'title', 'duration', 'status', 'message'],
        additionalProperties: false,
        properties: {
          jobId: { type: 'string', description: 'Identifier to poll GET /download/{jobId} with.' },
          title: { type: 'string', description: 'Video title.' },
          duration: seconds('Full video duration in seconds.'),
          status: { type: 'string', const: 'IN_QUEUE' },
          message: { type: 'string', description: 'Human-readable next-step hint.' },
        },
      },
      DownloadJob: {
        type: 'object',
        description: 'A download job in one of three shapes, selected by `status`.',
        oneOf: [schemaRef('DownloadJobPending'), schemaRef('DownloadJobCompleted'), schemaRef('DownloadJobFailed')],
        discriminator: {
          propertyName: 'status',
          mapping: {
            IN_QUEUE: '#/components/schemas/DownloadJobPending',
            IN_PROGRESS: '#/components/schemas/DownloadJobPending',
            COMPLETED: '#/components/schemas/DownloadJobCompleted',
            FAILED: '#/components/schemas/DownloadJobFailed',
          },
        },
      },
      DownloadJobPending: {
        type: 'object',
        description: 'Queued (`IN_QUEUE`) or being processed (`IN_PROGRESS`).',
        required: ['jobId', 'status', 'title', 'duration', 'url', 'format'],
        additionalProperties: false,
        properties: { ...downloadJobFields, status: { type: 'string', enum: ['IN_QUEUE', 'IN_PROGRESS'] }, progress: schemaRef('DownloadProgress') },
      },
      DownloadJobCompleted: {
        type: 'object',
        description: 'The file is ready at `downloadUrl`; its size has been charged against the bandwidth allowance (at least 20 MB).',
        required: ['jobId', 'status', 'url', 'format', 'actualFormat', 'downloadUrl', 'title', 'duration', 'fileSize'],
        additionalProperties: false,
        properties: {
          ...downloadJobFields,
          status: { type: 'string', const: 'COMPLETED' },
          actualFormat: {
            ...schemaRef('MediaFormat'),
            description: 'The format delivered: lower than `format` when capped down to fit the per-file size limit, or `audio` in place of `audio-aac`.',
          },
          downloadUrl: {
            type: 'string',
            format: 'uri',
            description:
              'Where to fetch the file. The link is signed and expires (each poll returns one valid from then, but never past the file\'s deletion after the retention period); ' +
              'it supports `Range` requests (answered `206`). An expired or altered link answers `403`: poll the job again for a fresh one. ' +
              'A link to a file deleted after its retention period answers `410`, expired or not: submit the download again.',
          },
          fileSize: { type: 'integer', minimum: 0, description: 'Size of the produced file in bytes.' },
        },
      },
      DownloadJobFailed: {
        type: 'object',
        description: 'The job failed; nothing was charged.',
        required: ['jobId', 'status', 'title', 'duration', 'url', 'format'],
        additionalProperties: false,
        properties: {
          ...downloadJobFields,
          status: { type: 'string', const: 'FAILED' },
          errorCode: { ...schemaRef('DownloadErrorCode'), description: 'Why it failed, when known; see DownloadErrorCode for retry advice.' },
        },
      },
      DownloadFinishedEvent: {
        type: 'object',
        description: 'Body of the `download.finished` webhook: the completed or the failed shape of the job.',
        oneOf: [schemaRef('DownloadJobCompleted'), schemaRef('DownloadJobFailed')],
        discriminator: {
          propertyName: 'status',
          mapping: { COMPLETED: '#/components/schemas/DownloadJobCompleted', FAILED: '#/components/schemas/DownloadJobFailed' },
        },
      },
      SubmitInfoRequest: {
        type: 'object',
        required: ['url'],
        additionalProperties: false,
        properties: {
          url: { type: 'string', description: 'The video, in the same forms as POST /download accepts.' },
          includeAudioTracks: {
            type: 'boolean',
            default: false,
            description: 'Also list the audio tracks. Needs a full extraction: such jobs are slower and can occasionally fail.',
          },
        },
      },
      SubmitInfoResponse: {
        type: 'object',
        required: ['jobId', 'status'],
        additionalProperties: false,
        properties: {
          jobId: { type: 'string', format: 'uuid', description: 'Identifier to poll GET /info/{jobId} with, for 1 hour.' },
          status: { type: 'string', const: 'pending' },
        },
      },
      InfoJob: {
        type: 'object',
        description: 'A video info job in one of three shapes, selected by `status`.',
        oneOf: [schemaRef('InfoJobPending'), schemaRef('InfoJobSuccess'), schemaRef('InfoJobFailed')],
        discriminator: {
          propertyName: 'status',
          mapping: { pending: '#/components/schemas/InfoJobPending', success: '#/components/schemas/InfoJobSuccess', failed: '#/components/schemas/InfoJobFailed' },
        },
      },
      InfoJobPending: {
        type: 'object',
        required: ['jobId', 'status'],
        additionalProperties: false,
        properties: { jobId: { type: 'string' }, status: { type: 'string', const: 'pending' } },
      },
      InfoJobSuccess: {
        type: 'object',
        required: ['jobId', 'status', 'result'],
        additionalProperties: false,
        properties: { jobId: { type: 'string' }, status: { type: 'string', const: 'success' }, result: schemaRef('VideoInfo') },
      },
      InfoJobFailed: {
        type: 'object',
        required: ['jobId', 'status', 'error'],
        additionalProperties: false,
        properties: {
          jobId: { type: 'string' },
          status: { type: 'string', const: 'failed' },
          error: { type: 'string', description: 'What went wrong, in words.' },
          errorCode: {
            ...schemaRef('DownloadErrorCode'),
            description: 'Present for recognised conditions (including the transient `NETWORK_ERROR`); absent for unrecognised service-side failures, which are worth retrying.',
          },
        },
      },
      VideoInfo: {
        type: 'object',
        required: ['title', 'duration', 'url'],
        additionalProperties: false,
        properties: {
          title: { type: 'string' },
          duration: seconds('Duration in seconds.'),
          url: { type: 'string', description: 'The submitted URL.' },
          audio: {
            type: 'array',
            items: schemaRef('AudioTrack'),
            description: 'Present only when submitted with `includeAudioTracks: true`. The first entry of type `original` is the original soundtrack.',
          },
        },
      },
      AudioTrack: {
        type: 'object',
        required: ['type', 'language'],
        additionalProperties: false,
        properties: {
          type: { type: 'string', enum: ['original', 'dubbed'] },
          language: { type: ['string', 'null'], description: 'ISO language code; null when unknown.' },
        },
      },
      ListChannelRequest: {
        type: 'object',
        required: ['channelUrl'],
        additionalProperties: false,
        properties: {
          channelUrl: {
            type: 'string',
            description: 'URL of a channel on the video platform: `/@<handle>`, `/channel/<id>`, `/c/<name>` or `/user/<name>`, each optionally followed by `/videos`.',
            examples: ['https://www.youtube.com/@example', 'https://www.youtube.com/channel/UCuAXFkgsw1L7xaCfnd5JJOw/videos'],
          },
          maxVideos: { type: 'integer', minimum: 1, maximum: 1000, default: 5, description: 'How many recent videos to list; higher values take proportionally longer.' },
        },
      },
      ChannelListing: {
        type: 'object',
        description: 'The media extractor’s flat-playlist listing of the channel, passed through; properties beyond those described here may appear.',
        required: ['id', 'title', 'channel', 'channel_id', 'channel_url', 'entries'],
        properties: {
          id: { type: 'string' },
          title: { type: 'string' },
          channel: { type: 'string' },
          channel_id: { type: 'string' },
          channel_url: { type: 'string' },
          entries: { type: 'array', items: schemaRef('ChannelListingEntry'), description: 'One item per video, most recent first.' },
        },
      },
      ChannelListingEntry: {
        type: 'object',
        description:
          'One video of the listing; properties beyond those described here may appear. `id`, `title`, `url` and `uploader` are always strings ' +
          '(an entry without an uploader of its own is given the channel\'s). Other properties are the extractor\'s, which reports null for what it does not know ' +
          'or leaves them out: `duration` for some short videos, `view_count` for live and upcoming streams.',
        required: ['id', 'title', 'url', 'uploader'],
        properties: {
          id: { type: 'string', description: 'Video ID.' },
          title: { type: 'string' },
          url: { type: 'string' },
          duration: { type: ['number', 'null'], description: 'Seconds; null or absent when the extractor does not know it.' },
          view_count: { type: ['integer', 'null'], description: 'Null or absent when the extractor does not know it.' },
          uploader: { type: 'string', description: 'The entry\'s uploader, or the channel\'s when the extractor gives the entry none.' },
        },
      },
      SubmitClientDownloadRequest: {
        type: 'object',
        required: ['url'],
        additionalProperties: false,
        properties: {
          url: {
            type: 'string',
            description: 'A video on the video platform, the photo/video sharing platform, the short-video platform or the social network (see POST /client-download).',
            examples: ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'https://www.instagram.com/reel/C0abcDEFghi/'],
          },
        },
      },
      SubmitClientDownloadResponse: {
        type: 'object',
        required: ['jobId', 'status'],
        additionalProperties: false,
        properties: {
          jobId: { type: 'string', format: 'uuid', description: 'Identifier to poll GET /client-download/{jobId} with.' },
          status: { type: 'string', const: 'pending' },
        },
      },
      ClientDownloadJob: {
        type: 'object',
        description: 'A client-download job in one of three shapes, selected by `status`.',
        oneOf: [schemaRef('ClientDownloadJobPending'), schemaRef('ClientDownloadJobSuccess'), schemaRef('ClientDownloadJobFailed')],
        discriminator: {
          propertyName: 'status',
          mapping: {
            pending: '#/components/schemas/ClientDownloadJobPending',
            success: '#/components/schemas/ClientDownloadJobSuccess',
            failed: '#/components/schemas/ClientDownloadJobFailed',
          },
        },
      },
      ClientDownloadJobPending: {
        type: 'object',
        required: ['jobId', 'status'],
        additionalProperties: false,
        properties: { jobId: { type: 'string' }, status: { type: 'string', const: 'pending' } },
      },
      ClientDownloadJobSuccess: {
        type: 'object',
        required: ['jobId', 'status', 'result'],
        additionalProperties: false,
        properties: { jobId: { type: 'string' }, status: { type: 'string', const: 'success' }, result: schemaRef('ClientDownloadInfo') },
      },
      ClientDownloadJobFailed: {
        type: 'object',
        required: ['jobId', 'status', 'error'],
        additionalProperties: false,
        properties: { jobId: { type: 'string' }, status: { type: 'string', const: 'failed' }, error: { type: 'string', description: 'What went wrong, in words.' } },
      },
      ClientDownloadInfo: {
        type: 'object',
        required: ['title', 'url', 'duration', 'downloadLinks'],
        additionalProperties: false,
        properties: {
          title: { type: 'string' },
          url: { type: 'string', description: 'The submitted URL.' },
          duration: { type: 'number', minimum: 0, description: 'Seconds.' },
          downloadLinks: { type: 'array', items: schemaRef('ClientDownloadLink') },
          description: { type: 'string' },
          author: { type: 'string' },
          authorUrl: { type: 'string' },
          thumbnailUrl: { type: 'string', format: 'uri' },
        },
      },
      ClientDownloadLink: {
        type: 'object',
        description: 'A direct media URL. `width` and `height` are given for video links only, `audioBitrate` for audio links only.',
        required: ['url', 'type', 'hasAudio'],
        additionalProperties: false,
        properties: {
          url: { type: 'string', format: 'uri', description: 'Direct media URL.' },
          type: { type: 'string', enum: ['video', 'audio'] },
          hasAudio: { type: 'boolean', description: 'For video links, whether audio is muxed in.' },
          width: { type: 'integer', minimum: 1, description: 'Pixels (video only).' },
          height: { type: 'integer', minimum: 1, description: 'Pixels (video only).' },
          audioBitrate: { type: 'integer', minimum: 1, description: 'kbps (audio only).' },
          sizeBytes: { type: 'integer', minimum: 0, description: 'Bytes, when known.' },
        },
        allOf: [
          { if: { properties: { type: { const: 'audio' } }, required: ['type'] }, then: { properties: { width: false, height: false } } },
          { if: { properties: { type: { const: 'video' } }, required: ['type'] }, then: { properties: { audioBitrate: false } } },
        ],
      },
      AccountResponse: {
        type: 'object',
        required: ['name', 'email', 'plan', 'balances'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', description: 'Account holder’s name.' },
          email: { type: 'string', description: 'Account email.' },
          plan: schemaRef('AccountPlan'),
          balances: schemaRef('Balances'),
        },
      },
      AccountPlan: {
        type: 'object',
        required: ['id', 'renewsAt', 'canceledAt'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', enum: ['free', 'starter', 'growth', 'scale', 'custom'] },
          renewsAt: { type: ['number', 'null'], description: 'Unix milliseconds when the period ends and quotas renew; null on the free plan.' },
          canceledAt: { type: ['number', 'null'], description: 'When set (Unix milliseconds), the plan is scheduled to cancel at the end of the current period.' },
        },
      },
      FeatureId: {
        type: 'string',
        enum: ['download_count', 'bandwidth_mb', 'info', 'client_download', 'channel_list'],
        description: '`client_download` and `channel_list` appear only where the add-on is enabled.',
      },
      Balances: {
        type: 'object',
        description: 'Live balance of every metered feature, keyed by feature ID.',
        required: ['download_count', 'bandwidth_mb', 'info'],
        propertyNames: schemaRef('FeatureId'),
        additionalProperties: schemaRef('FeatureBalance'),
      },
      FeatureBalance: {
        type: 'object',
        required: ['granted', 'used', 'remaining', 'unlimited', 'resetsAt'],
        additionalProperties: false,
        properties: {
          granted: { type: 'number', description: 'Units in the current cycle, extra grants included.' },
          used: { type: 'number' },
          remaining: { type: 'number', description: 'Units left before the limit, or overage pricing, applies.' },
          unlimited: { type: 'boolean', description: 'When true, ignore the numeric fields.' },
          resetsAt: { type: ['number', 'null'], description: 'Unix milliseconds of the next reset; null for one-off grants that never reset (such as the free plan).' },
        },
      },
      ApiError: {
        type: 'object',
        required: ['error'],
        additionalProperties: false,
        properties: {
          error: { type: 'string', description: 'What went wrong, in words.' },
          details: { type: 'string', description: 'Extra context, for instance the extractor’s message on 500 or the DownloadErrorCode of a video that cannot be downloaded.' },
        },
      },
      ...jobWatchingSchemas,
      CreditLimitError: {
        description: 'The ApiError of a used-up plan limit.',
        allOf: [schemaRef('ApiError'), { properties: { error: { const: 'Credit limit reached' } } }],
      },
    },
  },
} as const;
