/**
 * The document's parts for watching jobs (extensions to the contract):
 * listing one's downloads, live status over Server-Sent Events, webhook
 * history, and the `progress` of a running download. Kept apart from
 * document.ts, which passes in the responses every path shares.
 */

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: object, example?: unknown) => ({ 'application/json': example === undefined ? { schema } : { schema, example } });
const errorResponse = (description: string, example: string) => ({ description, content: jsonContent(schemaRef('ApiError'), { error: example }) });

export interface SharedParts {
  jobIdParameter: (description: string) => object;
  unauthorized: object;
  rateLimited: object;
  serverError: object;
}

const notFound = errorResponse('No such job: it does not exist, has expired, or belongs to another account.', 'Download job not found');

export function jobWatchingPaths(shared: SharedParts) {
  const jobId = shared.jobIdParameter('The `jobId` returned by POST /download.');
  return {
    '/downloads': {
      get: {
        operationId: 'listDownloads',
        tags: ['Downloads'],
        summary: 'List the account’s own download jobs, newest first (an extension to the contract)',
        description:
          'Each job in exactly the shape `GET /download/{jobId}` answers. Pages are cut by a keyset on (creation time, job id): ' +
          'pass `nextCursor` as `cursor` for the next page; jobs submitted meanwhile never shift a page. ' +
          'The list is read from the read model, so a job submitted a moment ago may appear a moment later. Free.',
        parameters: [
          { name: 'status', in: 'query', required: false, description: 'Only jobs in this status.', schema: schemaRef('DownloadJobStatus') },
          { name: 'limit', in: 'query', required: false, description: 'Jobs per page.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          { name: 'cursor', in: 'query', required: false, description: 'The `nextCursor` of the previous page, as given.', schema: { type: 'string', minLength: 1, maxLength: 512 } },
        ],
        responses: {
          '200': { description: 'A page of jobs.', content: jsonContent(schemaRef('DownloadJobList')) },
          '400': errorResponse('`status`, `limit` or `cursor` is malformed; `error` names it.', 'cursor is malformed: pass the nextCursor of a previous page as given'),
          '401': shared.unauthorized,
          '429': shared.rateLimited,
          '500': shared.serverError,
        },
      },
    },
    '/download/{jobId}/events': {
      get: {
        operationId: 'watchDownload',
        tags: ['Downloads'],
        summary: 'Live status of a download job as Server-Sent Events (an extension to the contract)',
        description: [
          'A `text/event-stream`. At once one event with the job’s current body, then one per change of status or `progress`; each is',
          '`id: <number>`, `event: job`, `data: <the GET /download/{jobId} body as one line of JSON>`. A comment `: ping` is sent every 15 s.',
          'The server closes the stream after sending a `COMPLETED` or `FAILED` body. Reconnecting with `Last-Event-ID` sends the current body',
          'only when it is newer than that id. Open streams are limited per API key and per server process: beyond either, `429`.',
        ].join('\n'),
        parameters: [jobId, { name: 'Last-Event-ID', in: 'header', required: false, description: 'The `id` of the last event received.', schema: { type: 'string', maxLength: 32 } }],
        responses: {
          '200': { description: 'The event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          '401': shared.unauthorized,
          '404': notFound,
          '429': errorResponse('Too many open event streams for this API key or on this server, or the request rate limit.', 'Too many open event streams for this API key (at most 20)'),
          '500': shared.serverError,
        },
      },
    },
    '/download/{jobId}/webhook-attempts': {
      get: {
        operationId: 'listWebhookAttempts',
        tags: ['Downloads'],
        summary: 'The job’s webhook delivery history (an extension to the contract)',
        description: 'Every `download.finished` attempt for the job, oldest first: when it started, the receiver’s status code or the error, how long it took and when the next attempt is due. Empty when the job has no `webhookUrl` or nothing was sent yet.',
        parameters: [jobId],
        responses: {
          '200': { description: 'The attempts.', content: jsonContent(schemaRef('WebhookAttemptList')) },
          '401': shared.unauthorized,
          '404': notFound,
          '429': shared.rateLimited,
          '500': shared.serverError,
        },
      },
    },
  };
}

export const jobWatchingSchemas = {
  DownloadProgress: {
    type: 'object',
    description:
      'How far a running download is (an extension to the contract): taken from yt-dlp’s and ffmpeg’s output, refreshed about once a second, never stored. ' +
      'Figures that are not known are left out.',
    required: ['stage'],
    additionalProperties: false,
    properties: {
      stage: { type: 'string', enum: ['downloading', 'converting', 'storing'] },
      percent: { type: 'number', minimum: 0, maximum: 100 },
      downloadedBytes: { type: 'integer', minimum: 0 },
      totalBytes: { type: 'integer', minimum: 0 },
      speedBytesPerSecond: { type: 'number', minimum: 0 },
      etaSeconds: { type: 'integer', minimum: 0 },
    },
  },
  DownloadJobList: {
    type: 'object',
    required: ['jobs', 'nextCursor'],
    additionalProperties: false,
    properties: {
      jobs: { type: 'array', items: schemaRef('DownloadJob') },
      nextCursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last page.' },
    },
  },
  WebhookAttemptList: {
    type: 'object',
    required: ['attempts'],
    additionalProperties: false,
    properties: {
      attempts: {
        type: 'array',
        items: {
          type: 'object',
          required: ['attempt', 'at', 'statusCode', 'error', 'durationMs', 'nextAttemptAt'],
          additionalProperties: false,
          properties: {
            attempt: { type: 'integer', minimum: 1, description: '1 to 10.' },
            at: { type: 'string', format: 'date-time', description: 'When the attempt started.' },
            statusCode: { type: ['integer', 'null'], description: 'The receiver’s HTTP status; null when none was received.' },
            error: { type: ['string', 'null'], description: 'Why the attempt failed without an answer (`timeout`, `connection_refused`, …), or null.' },
            durationMs: { type: 'integer', minimum: 0, description: 'How long the attempt took; 0 while it is under way.' },
            nextAttemptAt: { type: ['string', 'null'], format: 'date-time', description: 'When the next attempt is due after this failed one; null when none follows.' },
          },
        },
      },
    },
  },
} as const;
