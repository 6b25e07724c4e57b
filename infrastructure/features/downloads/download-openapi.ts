import { Type } from '@sinclair/typebox';
import {
  DownloadFinishedEvent,
  DownloadJob,
  SubmitDownloadRequest,
  SubmitDownloadResponse,
} from '../../http/openapi/download-schemas.js';
import { definePaths, jsonContent, ref, stringEnum } from '../../http/openapi/schema-kit.js';
import {
  ApiError,
  errorResponse,
  jobIdParameter,
  jobNotFound,
  rateLimitHeaders,
  rateLimited,
  rateLimitedDescription,
  responses,
} from '../../http/openapi/shared-responses.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';
import { downloadSchemas } from '../../http/openapi/download-schemas.js';

/** Submitting, polling and cancelling downloads, and the webhook a finished one sends. */

const jobId = jobIdParameter('The `jobId` returned by POST /download.');
const pendingDownloadsHeader = (description: string) => ({
  required: false,
  description,
  schema: Type.Integer({ minimum: 0 }),
});

const submitDownload = {
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
      description:
        'Any 1 to 255 visible ASCII characters, unique per intended download (a UUID is a good choice). Remembered for 24 hours.',
      schema: Type.String({
        minLength: 1,
        maxLength: 255,
        pattern: '^[\\x21-\\x7E]+$',
        description: '1 to 255 visible ASCII characters',
      }),
    },
  ],
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: ref('SubmitDownloadRequest', SubmitDownloadRequest),
        examples: {
          audio: {
            summary: 'Best audio, the default format',
            value: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
          },
          clip: {
            summary: 'A 720p clip from 0:30 to 1:00, with a webhook',
            value: {
              url: 'https://youtu.be/dQw4w9WgXcQ',
              format: '720',
              startTime: 30,
              endTime: 60,
              webhookUrl: 'https://hooks.example.com/video-done',
            },
          },
        },
      },
    },
  },
  responses: {
    '200': {
      description: 'The job is queued. Nothing is charged yet.',
      content: jsonContent(ref('SubmitDownloadResponse', SubmitDownloadResponse), {
        jobId: '3b241101-e2bb-4255-8caf-4136c566a962',
        title: 'Never Gonna Give You Up',
        duration: 213,
        status: 'IN_QUEUE',
        message: 'Download queued; poll GET /download/3b241101-e2bb-4255-8caf-4136c566a962 for its status',
      }),
    },
    '400': errorResponse(
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
        'X-Pending-Downloads': pendingDownloadsHeader(
          'Downloads the account has queued or in progress now; always sent with the pending-downloads 429.',
        ),
        'X-Pending-Downloads-Limit': pendingDownloadsHeader(
          'The most the account may have queued or in progress; always sent with the pending-downloads 429.',
        ),
        ...rateLimitHeaders(false),
      },
      content: jsonContent(ref('ApiError', ApiError), {
        error: 'Too many downloads queued or in progress (100 of 100)',
      }),
    },
    '500': responses.serverError,
    '503': responses.brieflyUnavailable,
  },
} as const;

const downloadPaths = definePaths({
  '/download': { post: submitDownload },
  '/download/{jobId}': {
    get: {
      operationId: 'getDownload',
      tags: ['Downloads'],
      summary: 'Poll a download job',
      description:
        'Returns the job in one of three shapes selected by `status`: pending (`IN_QUEUE`, `IN_PROGRESS`), `COMPLETED` (with `downloadUrl`, `fileSize` and `actualFormat`) ' +
        'or `FAILED` (with an optional `errorCode`). `COMPLETED` and `FAILED` are final. Free.',
      parameters: [jobId],
      responses: {
        '200': { description: 'The job.', content: jsonContent(ref('DownloadJob', DownloadJob)) },
        '401': responses.unauthorized,
        '429': rateLimited,
        '404': jobNotFound,
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
    delete: {
      operationId: 'cancelDownload',
      tags: ['Downloads'],
      summary: 'Cancel a queued or running download job (an extension to the contract)',
      description:
        'Ends a job that is `IN_QUEUE` or `IN_PROGRESS`: its extractor processes are stopped, it becomes `FAILED` without an `errorCode`, nothing is charged, ' +
        'and its `download.failed` webhook is sent as for any failure. Answers the job as `GET /download/{jobId}` would afterwards.',
      parameters: [jobId],
      responses: {
        '200': { description: 'The job, now `FAILED`.', content: jsonContent(ref('DownloadJob', DownloadJob)) },
        '401': responses.unauthorized,
        '429': rateLimited,
        '404': jobNotFound,
        '409': errorResponse(
          'The job is already `COMPLETED` or `FAILED`.',
          'Download job 3b241101-e2bb-4255-8caf-4136c566a962 is already COMPLETED and cannot be cancelled',
        ),
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
  },
});

const downloadWebhooks = {
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
        {
          name: 'X-Service-Event',
          in: 'header',
          required: true,
          description: 'Mirrors `status`.',
          schema: stringEnum(['download.completed', 'download.failed']),
        },
        { name: 'X-Service-Job-Id', in: 'header', required: true, description: 'The `jobId`.', schema: Type.String() },
        {
          name: 'X-Service-Attempt',
          in: 'header',
          required: true,
          description: 'Delivery attempt, starting at 1.',
          schema: Type.Integer({ minimum: 1, maximum: 10 }),
        },
        {
          name: 'X-Service-Signature',
          in: 'header',
          required: true,
          description: '`t=<unix seconds>,v1=<lowercase hex HMAC-SHA256>`.',
          schema: Type.String({ pattern: '^t=[0-9]+,v1=[0-9a-f]{64}$' }),
        },
      ],
      requestBody: { required: true, content: jsonContent(ref('DownloadFinishedEvent', DownloadFinishedEvent)) },
      responses: {
        '2XX': { description: 'Acknowledged; no further attempts.' },
        '410': { description: 'The receiver wants no more deliveries for this job; retries stop at once.' },
        default: { description: 'A failed attempt; retried with backoff until 10 attempts have been made.' },
      },
    },
  },
} as const;

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends DownloadPaths {}
  interface DocumentedSchemas extends DownloadSchemas {}
  interface DocumentedWebhooks extends DownloadWebhooks {}
}
type DownloadPaths = typeof downloadPaths;
type DownloadSchemas = typeof downloadSchemas;
type DownloadWebhooks = typeof downloadWebhooks;

export const downloadOpenApi: OpenApiPart = {
  tags: [
    {
      name: 'Downloads',
      description: 'Server-side downloads of a video or its audio, polled or delivered by webhook.',
    },
  ],
  paths: downloadPaths,
  schemas: downloadSchemas,
  webhooks: downloadWebhooks,
};
