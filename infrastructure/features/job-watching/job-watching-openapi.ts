import { Type } from '@sinclair/typebox';
import { CLIENT_WEBHOOK_ERRORS } from '../../../application/downloads/list-webhook-attempts.js';
import { DownloadJob, DownloadJobStatus } from '../../http/openapi/download-schemas.js';
import { definePaths, jsonContent, nullable, ref } from '../../http/openapi/schema-kit.js';
import {
  errorResponse,
  jobIdParameter,
  jobNotFound,
  rateLimited,
  responses,
} from '../../http/openapi/shared-responses.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';

/**
 * The document's parts for watching jobs (extensions to the contract):
 * listing one's downloads, live status over Server-Sent Events and webhook
 * history. The `progress` of a running download is in download-schemas.ts.
 */

const DownloadJobList = Type.Object(
  {
    jobs: Type.Array(ref('DownloadJob', DownloadJob)),
    nextCursor: nullable('string', { description: 'Pass as `cursor` for the next page; null on the last page.' }),
  },
  { additionalProperties: false },
);

const WebhookAttempt = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1, description: '1 to 10.' }),
    at: Type.String({ format: 'date-time', description: 'When the attempt started.' }),
    statusCode: nullable('integer', { description: 'The receiver’s HTTP status; null when none was received.' }),
    error: nullable('string', {
      enum: [...CLIENT_WEBHOOK_ERRORS, null],
      description:
        'Why the attempt failed without an answer, or null: `unreachable` (the receiver could not be reached: its name, ' +
        'its address or the connection failed; the exact cause is in the service’s log, not here, as it would describe the ' +
        'service’s network), `timeout` (no answer within the acknowledgement limit), `tls` (the TLS handshake or the ' +
        'certificate check failed), `no_signing_key` (the account had no active API key to sign with; nothing was sent) ' +
        'or `interrupted` (the service stopped during the attempt; whether the receiver saw it is unknown).',
    }),
    durationMs: Type.Integer({ minimum: 0, description: 'How long the attempt took; 0 while it is under way.' }),
    nextAttemptAt: nullable('string', {
      format: 'date-time',
      description: 'When the next attempt is due after this failed one; null when none follows.',
    }),
  },
  { additionalProperties: false },
);

const WebhookAttemptList = Type.Object({ attempts: Type.Array(WebhookAttempt) }, { additionalProperties: false });

const jobWatchingSchemas = { DownloadJobList, WebhookAttemptList };

const jobId = jobIdParameter('The `jobId` returned by POST /download.');

const jobWatchingPaths = definePaths({
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
        {
          name: 'status',
          in: 'query',
          required: false,
          description: 'Only jobs in this status.',
          schema: ref('DownloadJobStatus', DownloadJobStatus),
        },
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: 'Jobs per page.',
          schema: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
        },
        {
          name: 'cursor',
          in: 'query',
          required: false,
          description: 'The `nextCursor` of the previous page, as given.',
          schema: Type.String({ minLength: 1, maxLength: 512 }),
        },
      ],
      responses: {
        '200': { description: 'A page of jobs.', content: jsonContent(ref('DownloadJobList', DownloadJobList)) },
        '400': errorResponse(
          '`status`, `limit` or `cursor` is malformed; `error` names it.',
          'cursor is malformed: pass the nextCursor of a previous page as given',
        ),
        '401': responses.unauthorized,
        '429': rateLimited,
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
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
        'only when it is newer than that id; a finished job’s stream then closes, with or without it. Open streams are limited per API key',
        'and per server process: beyond either, `429`. A stream ends when its API key is revoked, and a client that stops reading is',
        'disconnected.',
      ].join('\n'),
      parameters: [
        jobId,
        {
          name: 'Last-Event-ID',
          in: 'header',
          required: false,
          description: 'The `id` of the last event received.',
          schema: Type.String({ maxLength: 32, pattern: '^[0-9]+$', description: '1 to 32 decimal digits' }),
        },
      ],
      responses: {
        '200': { description: 'The event stream.', content: { 'text/event-stream': { schema: Type.String() } } },
        '400': errorResponse(
          '`Last-Event-ID` is not 1 to 32 decimal digits.',
          'Last-Event-ID header must be 1 to 32 decimal digits',
        ),
        '401': responses.unauthorized,
        '404': jobNotFound,
        '429': errorResponse(
          'Too many open event streams for this API key or on this server, or the request rate limit.',
          'Too many open event streams for this API key (at most 20)',
        ),
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
  },
  '/download/{jobId}/webhook-attempts': {
    get: {
      operationId: 'listWebhookAttempts',
      tags: ['Downloads'],
      summary: 'The job’s webhook delivery history (an extension to the contract)',
      description:
        'Every `download.finished` attempt for the job, oldest first: when it started, the receiver’s status code or the error, how long it took and when the next attempt is due. ' +
        'Empty when the job has no `webhookUrl` or nothing was sent yet.',
      parameters: [jobId],
      responses: {
        '200': { description: 'The attempts.', content: jsonContent(ref('WebhookAttemptList', WebhookAttemptList)) },
        '401': responses.unauthorized,
        '404': jobNotFound,
        '429': rateLimited,
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends JobWatchingPaths {}
  interface DocumentedSchemas extends JobWatchingSchemas {}
}
type JobWatchingPaths = typeof jobWatchingPaths;
type JobWatchingSchemas = typeof jobWatchingSchemas;

export const jobWatchingOpenApi: OpenApiPart = {
  paths: jobWatchingPaths,
  schemas: jobWatchingSchemas,
};
