import { Type } from '@sinclair/typebox';
import { closed, lookupFailedFields, lookupJobShapes, lookupSubmitted } from '../../http/openapi/job-shapes.js';
import { definePaths, jsonContent, ref, stringEnum } from '../../http/openapi/schema-kit.js';
import { errorResponse, jobIdParameter, rateLimited, responses } from '../../http/openapi/shared-responses.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';

/** The client-download add-on: submit, then poll the job for direct media links. */

const SubmitClientDownloadRequest = Type.Object(
  {
    url: Type.String({
      description:
        'A video on the video platform, the photo/video sharing platform, the short-video platform or the social network (see POST /client-download).',
      examples: ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'https://www.instagram.com/reel/C0abcDEFghi/'],
    }),
  },
  closed,
);

const SubmitClientDownloadResponse = lookupSubmitted('Identifier to poll GET /client-download/{jobId} with.');

const ClientDownloadLink = Type.Object(
  {
    url: Type.String({ format: 'uri', description: 'Direct media URL.' }),
    type: stringEnum(['video', 'audio']),
    hasAudio: Type.Boolean({ description: 'For video links, whether audio is muxed in.' }),
    width: Type.Optional(Type.Integer({ minimum: 1, description: 'Pixels (video only).' })),
    height: Type.Optional(Type.Integer({ minimum: 1, description: 'Pixels (video only).' })),
    audioBitrate: Type.Optional(Type.Integer({ minimum: 1, description: 'kbps (audio only).' })),
    sizeBytes: Type.Optional(Type.Integer({ minimum: 0, description: 'Bytes, when known.' })),
  },
  {
    ...closed,
    description:
      'A direct media URL. `width` and `height` are given for video links only, `audioBitrate` for audio links only.',
    allOf: [
      {
        if: { properties: { type: { const: 'audio' } }, required: ['type'] },
        then: { properties: { width: false, height: false } },
      },
      {
        if: { properties: { type: { const: 'video' } }, required: ['type'] },
        then: { properties: { audioBitrate: false } },
      },
    ],
  },
);

const ClientDownloadInfo = Type.Object(
  {
    title: Type.String(),
    url: Type.String({ description: 'The submitted URL.' }),
    duration: Type.Number({ minimum: 0, description: 'Seconds.' }),
    downloadLinks: Type.Array(ref('ClientDownloadLink', ClientDownloadLink)),
    description: Type.Optional(Type.String()),
    author: Type.Optional(Type.String()),
    authorUrl: Type.Optional(Type.String()),
    thumbnailUrl: Type.Optional(Type.String({ format: 'uri' })),
  },
  closed,
);

const clientDownloadJob = lookupJobShapes(
  'ClientDownloadJob',
  'A client-download job in one of three shapes, selected by `status`.',
  ref('ClientDownloadInfo', ClientDownloadInfo),
  Type.Object(lookupFailedFields, closed),
);

const ClientDownloadJob = clientDownloadJob.job;

const clientDownloadSchemas = {
  SubmitClientDownloadRequest,
  SubmitClientDownloadResponse,
  ...clientDownloadJob.schemas,
  ClientDownloadInfo,
  ClientDownloadLink,
};

const clientDownloadPaths = definePaths({
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
      requestBody: {
        required: true,
        content: jsonContent(ref('SubmitClientDownloadRequest', SubmitClientDownloadRequest), {
          url: 'https://www.youtube.com/shorts/dQw4w9WgXcQ',
        }),
      },
      responses: {
        '200': {
          description: 'The job is queued.',
          content: jsonContent(ref('SubmitClientDownloadResponse', SubmitClientDownloadResponse), {
            jobId: '0d9c8b7a-6f5e-4d3c-8b1a-9f8e7d6c5b4a',
            status: 'pending',
          }),
        },
        '400': errorResponse(
          'A missing or malformed field, or a link the service does not support. The message names the problem.',
          'url is required',
        ),
        '401': responses.unauthorized,
        '429': rateLimited,
        '403': responses.addOnOrCreditLimit,
        '413': responses.payloadTooLarge,
        '415': responses.unsupportedMediaType,
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
  },
  '/client-download/{jobId}': {
    get: {
      operationId: 'getClientDownload',
      tags: ['Client downloads'],
      summary: 'Poll a client-download job',
      description:
        'Returns the job in one of three shapes selected by `status`: `pending`, `success` (with `result`) or `failed` (with `error`). Free.',
      parameters: [jobIdParameter('The `jobId` returned by POST /client-download.')],
      responses: {
        '200': { description: 'The job.', content: jsonContent(ref('ClientDownloadJob', ClientDownloadJob)) },
        '401': responses.unauthorized,
        '429': rateLimited,
        '404': errorResponse(
          'No such job: it does not exist, has expired, or belongs to another account.',
          'Client-download job not found',
        ),
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends ClientDownloadPaths {}
  interface DocumentedSchemas extends ClientDownloadSchemas {}
}
type ClientDownloadPaths = typeof clientDownloadPaths;
type ClientDownloadSchemas = typeof clientDownloadSchemas;

export const clientDownloadOpenApi: OpenApiPart = {
  tags: [{ name: 'Client downloads', description: 'Add-on: direct media links the client fetches itself.' }],
  paths: clientDownloadPaths,
  schemas: clientDownloadSchemas,
};
