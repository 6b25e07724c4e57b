import { type Static, Type } from '@sinclair/typebox';
import { DOWNLOAD_ERROR_CODES } from '../../../domain/download-error-code.js';
import { MEDIA_FORMATS } from '../../../domain/media-format.js';
import { jobShapes, oneShapeByStatus } from './job-shapes.js';
import { defaulted, nullable, ref, seconds, stringEnum } from './schema-kit.js';

/** The schemas of downloads: the request, the job's three shapes and the webhook's body. */

export const MediaFormat = stringEnum(MEDIA_FORMATS, {
  description: [
    '- `1080`, `720`, `480`, `360`: vertical resolution, delivered as MP4; may be capped down for very long videos so the file fits the plan’s per-file size limit (see `actualFormat`).',
    '- `audio` (default): the best audio stream the platform serves, in its own container (usually M4A/AAC or WebM/Opus), not re-encoded.',
    '- `audio-aac`: the platform’s AAC stream (M4A, about 128 kbps), not re-encoded; when there is none the best audio is delivered and `actualFormat` is `audio`.',
    '- `audio-mp3`: MP3 at 320 kbps constant bitrate; sample rate and channel layout are kept.',
  ].join('\n'),
});

export const DownloadErrorCode = stringEnum(DOWNLOAD_ERROR_CODES, {
  description:
    'Why a job failed. Every value except `NETWORK_ERROR` describes the video or the service’s policy: retrying gives the same result. ' +
    '`NETWORK_ERROR` is a transient failure on the service’s side: retry after a short backoff. ' +
    '`VIDEO_PREMIERE` and `LIVE_STREAM_IN_PROGRESS` clear once the premiere starts or the stream ends.',
});

export const DownloadJobStatus = stringEnum(['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED', 'FAILED'], {
  description: '`IN_QUEUE` → `IN_PROGRESS` → `COMPLETED` or `FAILED`; the last two are final.',
});

// A bound far beyond any video, so that a JSON number too large for a double (1e400, read as Infinity) is refused.
const LARGEST_SECOND = 2147483647;

export const SubmitDownloadRequest = Type.Object(
  {
    url: Type.String({
      maxLength: 2048,
      description:
        'The video: `https://{video_host}/watch?v=<id>`, `https://{short_host}/<id>` or `https://{video_host}/live/<id>`, at most 2048 characters, ' +
        'with its host written plainly (no backslashes, percent-encoding or numeric forms) and one `v`. The job reports it back as given; the platform is asked for `https://{video_host}/watch?v=<id>`.',
      examples: ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://youtu.be/dQw4w9WgXcQ'],
    }),
    format: defaulted(ref('MediaFormat', MediaFormat), 'audio'),
    startTime: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: LARGEST_SECOND,
        description:
          'Start of the clip in seconds, inclusive; must be less than the duration. Omitted: from the beginning.',
      }),
    ),
    endTime: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: LARGEST_SECOND,
        description:
          'End of the clip in seconds, exclusive; at most the duration and greater than `startTime`. Omitted: to the end.',
      }),
    ),
    language: Type.Optional(
      Type.String({
        maxLength: 35,
        pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$',
        description:
          'BCP-47 tag of the audio language wanted. When the video has no such track: any track whose tag starts with it (`en` matches `en-US`), ' +
          'then the original audio. Omitted: the original audio.',
        examples: ['en', 'en-US', 'pt-BR'],
      }),
    ),
    webhookUrl: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        description:
          'Public `http://` or `https://` URL that receives the `download.finished` webhook. Loopback, private-network and single-label host names are refused with `400`; ' +
          'redirects are not followed.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SubmitDownloadResponse = Type.Object(
  {
    jobId: Type.String({ description: 'Identifier to poll GET /download/{jobId} with.' }),
    title: Type.String({ description: 'Video title.' }),
    duration: seconds('Full video duration in seconds.'),
    status: Type.Literal('IN_QUEUE'),
    message: Type.String({ description: 'Human-readable next-step hint.' }),
  },
  { additionalProperties: false },
);

const DownloadProgress = Type.Object(
  {
    stage: stringEnum(['downloading', 'converting', 'storing']),
    percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    downloadedBytes: Type.Optional(Type.Integer({ minimum: 0 })),
    totalBytes: Type.Optional(Type.Integer({ minimum: 0 })),
    speedBytesPerSecond: Type.Optional(Type.Number({ minimum: 0 })),
    etaSeconds: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  {
    additionalProperties: false,
    description:
      'How far a running download is (an extension to the contract): taken from yt-dlp’s and ffmpeg’s output, refreshed about once a second, never stored. ' +
      'Figures that are not known are left out.',
  },
);

/** Fields every download job shape shares; each shape adds its own. */
const downloadJobFields = {
  jobId: Type.String({ description: 'Job identifier, as returned by POST /download.' }),
  url: Type.String({ description: 'The submitted URL, as given.' }),
  format: ref('MediaFormat', MediaFormat, { description: 'The format requested.' }),
  title: Type.String({ description: 'Video title.' }),
  duration: seconds('Full video duration in seconds, whatever startTime/endTime were requested.'),
  language: Type.Optional(
    nullable('string', {
      description:
        'The language requested; null when none was. The language delivered may differ through the fallback chain.',
    }),
  ),
  createdAt: Type.Optional(Type.String({ format: 'date-time', description: 'Submission time.' })),
  startedAt: Type.Optional(
    nullable('string', {
      format: 'date-time',
      description: 'When processing started; null while queued (and for a job that failed before it started).',
    }),
  ),
  completedAt: Type.Optional(
    nullable('string', {
      format: 'date-time',
      description: 'When the job reached COMPLETED or FAILED; null until then.',
    }),
  ),
};

const DownloadJobPending = Type.Object(
  {
    ...downloadJobFields,
    status: stringEnum(['IN_QUEUE', 'IN_PROGRESS']),
    progress: Type.Optional(ref('DownloadProgress', DownloadProgress)),
  },
  { additionalProperties: false, description: 'Queued (`IN_QUEUE`) or being processed (`IN_PROGRESS`).' },
);

export const DownloadJobCompleted = Type.Object(
  {
    ...downloadJobFields,
    status: Type.Literal('COMPLETED'),
    actualFormat: ref('MediaFormat', MediaFormat, {
      description:
        'The format delivered: lower than `format` when capped down to fit the per-file size limit, or `audio` in place of `audio-aac`.',
    }),
    downloadUrl: Type.String({
      format: 'uri',
      description:
        "Where to fetch the file. The link is signed and expires (each poll returns one valid from then, but never past the file's deletion after the retention period); " +
        'it supports `Range` requests (answered `206`). An expired or altered link answers `403`: poll the job again for a fresh one. ' +
        'A link to a file deleted after its retention period answers `410`, expired or not: submit the download again.',
    }),
    fileSize: Type.Integer({ minimum: 0, description: 'Size of the produced file in bytes.' }),
  },
  {
    additionalProperties: false,
    description:
      'The file is ready at `downloadUrl`; its size has been charged against the bandwidth allowance (at least 20 MB).',
  },
);

export const DownloadJobFailed = Type.Object(
  {
    ...downloadJobFields,
    status: Type.Literal('FAILED'),
    errorCode: Type.Optional(
      ref('DownloadErrorCode', DownloadErrorCode, {
        description: 'Why it failed, when known; see DownloadErrorCode for retry advice.',
      }),
    ),
  },
  { additionalProperties: false, description: 'The job failed; nothing was charged.' },
);

const downloadJob = jobShapes('DownloadJob', 'A download job in one of three shapes, selected by `status`.', {
  pending: { name: 'DownloadJobPending', schema: DownloadJobPending },
  success: { name: 'DownloadJobCompleted', schema: DownloadJobCompleted },
  failed: { name: 'DownloadJobFailed', schema: DownloadJobFailed },
});

export const DownloadJob = downloadJob.job;

export const DownloadFinishedEvent = oneShapeByStatus<
  Static<typeof DownloadJobCompleted> | Static<typeof DownloadJobFailed>
>('Body of the `download.finished` webhook: the completed or the failed shape of the job.', [
  { name: 'DownloadJobCompleted', schema: DownloadJobCompleted },
  { name: 'DownloadJobFailed', schema: DownloadJobFailed },
]);

export const downloadSchemas = {
  MediaFormat,
  DownloadErrorCode,
  DownloadJobStatus,
  SubmitDownloadRequest,
  SubmitDownloadResponse,
  ...downloadJob.schemas,
  DownloadFinishedEvent,
  DownloadProgress,
};
