import { Type } from '@sinclair/typebox';
import { MAX_BATCH_VIDEOS } from '../../../domain/batch/source.js';
import { SubmitDownloadRequest } from '../../http/openapi/download-schemas.js';
import { closed } from '../../http/openapi/job-shapes.js';
import { defaulted, definePaths, jsonContent, nullable, ref, stringEnum } from '../../http/openapi/schema-kit.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';
import {
  authenticatedResponses,
  cursorPageParameters,
  errorResponse,
  responses,
  idPathParameter,
} from '../../http/openapi/shared-responses.js';

const { format, language, webhookUrl } = SubmitDownloadRequest.properties;

const SubmitBatchRequest = Type.Object(
  {
    playlistUrl: Type.Optional(
      Type.String({
        maxLength: 2048,
        description: 'A playlist of the video platform: `https://{video_host}/playlist?list=<id>`.',
      }),
    ),
    channelUrl: Type.Optional(
      Type.String({
        maxLength: 2048,
        description: 'A channel, in the forms `POST /list-channel` takes; its newest videos first.',
      }),
    ),
    urls: Type.Optional(
      Type.Array(Type.String({ maxLength: 2048 }), {
        minItems: 1,
        maxItems: MAX_BATCH_VIDEOS,
        description: 'Video URLs, in the forms `POST /download` takes; a video named twice is taken once.',
      }),
    ),
    maxVideos: defaulted(
      Type.Integer({
        minimum: 1,
        maximum: MAX_BATCH_VIDEOS,
        description: 'The most videos the listing takes, in its order.',
      }),
      100,
    ),
    format,
    language,
    webhookUrl,
    batchWebhookUrl: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        description: 'Receives the signed `batch.finished` webhook, under the same rules as `webhookUrl`.',
      }),
    ),
  },
  {
    ...closed,
    description:
      'Exactly one of `playlistUrl`, `channelUrl` and `urls`. `format`, `language` and `webhookUrl` apply to each video’s job.',
  },
);

const SubmitBatchResponse = Type.Object(
  {
    batchId: Type.String(),
    status: Type.Literal('pending'),
    message: Type.String(),
  },
  closed,
);

const BatchVideoStatus = stringEnum(['waiting', 'admitted', 'completed', 'failed', 'cancelled', 'refused'], {
  description: '`waiting` for a pending slot, `admitted` while its job is queued or runs, then how it ended.',
});

const BatchJob = Type.Object(
  {
    videoUrl: Type.String(),
    title: nullable('string', { description: 'Null until the listing or its job’s lookup gives one.' }),
    status: BatchVideoStatus,
    jobId: nullable('string', { description: 'Its download job (poll `GET /download/{jobId}`); null while waiting.' }),
    refusal: Type.Union([Type.Null(), Type.Object({ code: Type.String(), message: Type.String() }, closed)], {
      description: 'Why the video got no job, in the words a single submission would have got.',
    }),
  },
  closed,
);

const Batch = Type.Object(
  {
    batchId: Type.String(),
    status: stringEnum(['pending', 'running', 'completed', 'partial', 'failed', 'cancelled']),
    source: Type.Object({ kind: stringEnum(['playlist', 'channel', 'urls']), url: Type.Optional(Type.String()) }),
    format: Type.String(),
    maxVideos: Type.Integer(),
    listingUnits: nullable('integer', { description: '`channel_list` units the listing was charged; 0 for `urls`.' }),
    listingError: nullable('string'),
    totalVideos: Type.Integer(),
    counts: Type.Record(Type.String(), Type.Integer(), { description: 'The videos by status.' }),
    requestedAt: Type.String({ format: 'date-time' }),
    finishedAt: nullable('string', { format: 'date-time' }),
    jobs: Type.Array(ref('BatchJob', BatchJob), { description: 'A page of the videos, in listing order.' }),
    nextCursor: nullable('string', { description: 'Pass as `cursor` for the next page; null on the last.' }),
  },
  closed,
);

const BatchChangeResponse = Type.Object({ batchId: Type.String(), message: Type.String() }, closed);

const batchIdParameter = idPathParameter('batchId', 'The batch, as `POST /download-batch` answered it.');

const pageParameters = cursorPageParameters('Jobs');

const batchNotFound = errorResponse('No such batch, or another account’s.', 'Batch not found');

const common = authenticatedResponses;

const batchSchemas = {
  SubmitBatchRequest,
  SubmitBatchResponse,
  Batch,
  BatchJob,
  BatchVideoStatus,
  BatchChangeResponse,
};

const batchTag = {
  name: 'Batches',
  description: 'A playlist, a channel or a list of URLs in one request: one ordinary download job per video.',
};

const batchPaths = definePaths({
  '/download-batch': {
    post: {
      operationId: 'submitBatch',
      tags: ['Batches'],
      summary: 'Download a playlist, a channel or a list of videos as one batch (an extension to the contract)',
      description:
        'Each video becomes an ordinary download job (the same checks, reservation, charge and `download.finished` webhooks as `POST /download`). ' +
        'A playlist or channel is listed first and charged as `POST /list-channel` is (1 `channel_list` unit per 10 items; needs that add-on); `urls` need none. ' +
        'Jobs are admitted as the account’s pending slots (100) free up; videos still waiting do not count as pending. ' +
        'When the credit runs out, the remaining videos end refused with `Credit limit reached` and the batch ends `partial`.',
      requestBody: {
        required: true,
        content: jsonContent(ref('SubmitBatchRequest', SubmitBatchRequest), {
          playlistUrl: 'https://www.youtube.com/playlist?list=PL0123456789',
          maxVideos: 50,
          format: '720',
        }),
      },
      responses: {
        '202': {
          description: 'The batch is accepted.',
          content: jsonContent(ref('SubmitBatchResponse', SubmitBatchResponse)),
        },
        '400': errorResponse(
          'A missing, extra or malformed field; `error` names it.',
          'exactly one of playlistUrl, channelUrl or urls must be given',
        ),
        '403': responses.addOnOrCreditLimit,
        '413': responses.payloadTooLarge,
        '415': responses.unsupportedMediaType,
        ...common,
      },
    },
  },
  '/download-batch/{batchId}': {
    get: {
      operationId: 'getBatch',
      tags: ['Batches'],
      summary: 'A batch: its status, counts by status and a page of its jobs',
      description:
        'Read from the read model, so a change a moment ago may show a moment later. Pages cut the videos in listing order; pass `nextCursor` as `cursor`. Free.',
      parameters: [batchIdParameter, ...pageParameters],
      responses: {
        '200': { description: 'The batch.', content: jsonContent(ref('Batch', Batch)) },
        '400': errorResponse(
          '`limit` or `cursor` is malformed; `error` names it.',
          'cursor is malformed: pass the nextCursor of a previous page as given',
        ),
        '404': batchNotFound,
        ...common,
      },
    },
    delete: {
      operationId: 'cancelBatch',
      tags: ['Batches'],
      summary: 'Cancel what of the batch has not finished',
      description:
        'Waiting videos are withdrawn and queued or running jobs are cancelled; the batch then ends `cancelled`.',
      parameters: [batchIdParameter],
      responses: {
        '202': {
          description: 'The cancel is recorded.',
          content: jsonContent(ref('BatchChangeResponse', BatchChangeResponse)),
        },
        '404': batchNotFound,
        ...common,
      },
    },
  },
  '/download-batch/{batchId}/events': {
    get: {
      operationId: 'watchBatch',
      tags: ['Batches'],
      summary: 'Live status of a batch as Server-Sent Events',
      description: [
        'A `text/event-stream`, as `GET /download/{jobId}/events` is for a job. At once one event with the batch’s current body, then one',
        'per change of its status or of a video’s; each is `id: <number>`, `event: batch`, `data: <the GET /download-batch/{batchId} body',
        'for the same limit and cursor, as one line of JSON>`. A comment `: ping` is sent every 15 s. The server closes the stream after',
        'sending a `completed`, `partial`, `failed` or `cancelled` body. Reconnecting with `Last-Event-ID` sends the current body only when',
        'it is newer than that id. Open streams count with job streams against the limits per API key and per server process: beyond',
        'either, `429`. A stream ends when its API key is revoked, and a client that stops reading is disconnected.',
      ].join('\n'),
      parameters: [
        batchIdParameter,
        ...pageParameters,
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
          '`limit`, `cursor` or `Last-Event-ID` is malformed; `error` names it.',
          'Last-Event-ID header must be 1 to 32 decimal digits',
        ),
        '404': batchNotFound,
        ...common,
        '429': errorResponse(
          'Too many open event streams for this API key or on this server, or the request rate limit.',
          'Too many open event streams for this API key (at most 20)',
        ),
      },
    },
  },
  '/download-batch/{batchId}/retry': {
    post: {
      operationId: 'retryBatch',
      tags: ['Batches'],
      summary: 'Submit again the videos of the batch that failed (or were refused for credit)',
      description:
        'Each such video gets a new job, admitted as slots free up; the batch then finishes again with a new `batch.finished`.',
      parameters: [batchIdParameter],
      responses: {
        '202': {
          description: 'The retry is recorded.',
          content: jsonContent(ref('BatchChangeResponse', BatchChangeResponse)),
        },
        '404': batchNotFound,
        '409': errorResponse(
          'The batch has no failed videos, or was cancelled.',
          'Batch has no failed videos to retry',
        ),
        ...common,
      },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends BatchPaths {}
  interface DocumentedSchemas extends BatchSchemas {}
}
type BatchPaths = typeof batchPaths;
type BatchSchemas = typeof batchSchemas;

export const batchesOpenApi: OpenApiPart = { tags: [batchTag], paths: batchPaths, schemas: batchSchemas };
