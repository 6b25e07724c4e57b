import { Type } from '@sinclair/typebox';
import { DownloadErrorCode } from '../../http/openapi/download-schemas.js';
import { closed, lookupFailedFields, lookupJobShapes, lookupSubmitted } from '../../http/openapi/job-shapes.js';
import {
  defaulted,
  definePaths,
  jsonContent,
  nullable,
  ref,
  seconds,
  stringEnum,
} from '../../http/openapi/schema-kit.js';
import { errorResponse, jobIdParameter, rateLimited, responses } from '../../http/openapi/shared-responses.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';

/** Video info lookups: submit, then poll the job for the title, duration and audio tracks. */

const SubmitInfoRequest = Type.Object(
  {
    url: Type.String({ description: 'The video, in the same forms as POST /download accepts.' }),
    includeAudioTracks: defaulted(
      Type.Boolean({
        description:
          'Also list the audio tracks. Needs a full extraction: such jobs are slower and can occasionally fail.',
      }),
      false,
    ),
  },
  closed,
);

const SubmitInfoResponse = lookupSubmitted('Identifier to poll GET /info/{jobId} with, for 1 hour.');

const AudioTrack = Type.Object(
  {
    type: stringEnum(['original', 'dubbed']),
    language: nullable('string', { description: 'ISO language code; null when unknown.' }),
  },
  closed,
);

const VideoInfo = Type.Object(
  {
    title: Type.String(),
    duration: seconds('Duration in seconds.'),
    url: Type.String({ description: 'The submitted URL.' }),
    audio: Type.Optional(
      Type.Array(ref('AudioTrack', AudioTrack), {
        description:
          'Present only when submitted with `includeAudioTracks: true`. The first entry of type `original` is the original soundtrack.',
      }),
    ),
  },
  closed,
);

const infoJob = lookupJobShapes(
  'InfoJob',
  'A video info job in one of three shapes, selected by `status`.',
  ref('VideoInfo', VideoInfo),
  Type.Object(
    {
      ...lookupFailedFields,
      errorCode: Type.Optional(
        ref('DownloadErrorCode', DownloadErrorCode, {
          description:
            'Present for recognised conditions (including the transient `NETWORK_ERROR`); absent for unrecognised service-side failures, which are worth retrying.',
        }),
      ),
    },
    closed,
  ),
);

const InfoJob = infoJob.job;

const infoSchemas = { SubmitInfoRequest, SubmitInfoResponse, ...infoJob.schemas, VideoInfo, AudioTrack };

const infoPaths = definePaths({
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
        content: jsonContent(ref('SubmitInfoRequest', SubmitInfoRequest), {
          url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
          includeAudioTracks: true,
        }),
      },
      responses: {
        '200': {
          description: 'The job is queued.',
          content: jsonContent(ref('SubmitInfoResponse', SubmitInfoResponse), {
            jobId: '9f1c2d4e-5b6a-4c7d-8e9f-0a1b2c3d4e5f',
            status: 'pending',
          }),
        },
        '400': errorResponse(
          'A missing or malformed field, or an unsupported URL. The message names the problem.',
          'url is required',
        ),
        '401': responses.unauthorized,
        '429': rateLimited,
        '403': responses.creditLimitReached,
        '413': responses.payloadTooLarge,
        '415': responses.unsupportedMediaType,
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
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
        '200': { description: 'The job.', content: jsonContent(ref('InfoJob', InfoJob)) },
        '401': responses.unauthorized,
        '429': rateLimited,
        '404': errorResponse(
          'No such job: it does not exist, is older than 1 hour, or belongs to another account.',
          'Info job not found',
        ),
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends InfoPaths {}
  interface DocumentedSchemas extends InfoSchemas {}
}
type InfoPaths = typeof infoPaths;
type InfoSchemas = typeof infoSchemas;

export const infoOpenApi: OpenApiPart = {
  tags: [{ name: 'Video info', description: 'Title, duration and audio tracks of a video, without downloading it.' }],
  paths: infoPaths,
  schemas: infoSchemas,
};
