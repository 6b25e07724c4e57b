/**
 * The OpenAPI 3.1 document of the API, written by hand from the contract. It
 * is the single source of request validation (request-validator.ts), is
 * served at /api/v2/openapi.json, and tests check every response against it.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: object) => ({ oneOf: [schema, { type: 'null' }] });
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const error = (description: string) => ({ description, ...json(ref('ApiError')) });
const dateTime = { type: 'string', format: 'date-time' };

const jobFields = {
  jobId: { type: 'string' },
  url: { type: 'string', description: 'The submitted URL.' },
  format: { ...ref('MediaFormat'), description: 'Format requested.' },
  title: { type: 'string' },
  duration: { type: 'integer', description: 'Full video duration, seconds.' },
  language: { ...nullable({ type: 'string' }), description: 'Language requested; null if none.' },
  createdAt: { ...dateTime, description: 'Submission time.' },
  startedAt: { ...nullable(dateTime), description: 'null while queued.' },
  completedAt: { ...nullable(dateTime), description: 'null until terminal.' },
};

// Info and client-download submissions answer alike but are named apart so clients can evolve them separately.
const pendingJobAccepted = (description: string) => ({
  type: 'object',
  description,
  required: ['jobId', 'status'],
  additionalProperties: false,
  properties: { jobId: { type: 'string', format: 'uuid' }, status: { const: 'pending' } },
});

const jobIdParameter = { name: 'jobId', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 200 } };
const unauthorized = error('Missing or invalid API key. Not charged.');
const serverError = error('Unexpected server error; `details` may carry extractor context.');
const invalid = error('A missing or malformed field; the message names it.');

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Video Download Service API',
    version: '2.0.0',
    description:
      'Server-side video downloads with job polling, video metadata, client download links, channel listing and account balances. ' +
      'Only bandwidth is charged: each completed download counts its file size (at least 20 MB) against the plan.',
  },
  servers: [{ url: '/api/v2' }, { url: '/api/v1', description: 'legacy' }, { url: '/v2', description: 'legacy' }],
  security: [{ bearerAuth: [] }],
  paths: {
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This document',
        security: [],
        responses: { '200': { description: 'The OpenAPI document.', ...json({ type: 'object', required: ['openapi', 'paths'] }) } },
      },
    },
    '/download': {
      post: {
        operationId: 'submitDownload',
        summary: 'Queue a download of a video or its audio',
        description: 'Submitting is free; bandwidth is charged when the job completes. Poll GET /download/{jobId} or pass a webhookUrl.',
        requestBody: { required: true, ...json(ref('SubmitDownloadRequest')) },
        responses: {
          '200': { description: 'Queued.', ...json(ref('SubmitDownloadResponse')) },
          '400': invalid,
          '401': unauthorized,
          '403': error('Usage limit reached for the plan; `error` is exactly "Credit limit reached". Not charged.'),
          '413': error('Request body too large.'),
          '415': error('The body is not JSON.'),
          '429': {
            description: 'The account already has 100 downloads queued or in progress. Not charged.',
            headers: {
              'X-Pending-Downloads': { required: true, schema: { type: 'integer' }, description: 'Current count.' },
              'X-Pending-Downloads-Limit': { required: true, schema: { type: 'integer' }, description: 'Maximum.' },
            },
            ...json(ref('ApiError')),
          },
          '500': serverError,
        },
      },
    },
    '/download/{jobId}': {
      get: {
        operationId: 'getDownload',
        summary: 'Poll a download job',
        parameters: [jobIdParameter],
        responses: {
          '200': { description: 'The job in one of three shapes, selected by status.', ...json(ref('DownloadStatus')) },
          '401': unauthorized,
          '404': error('Job not found, expired, or belongs to another account.'),
          '500': serverError,
        },
      },
    },
    '/info': {
      post: {
        operationId: 'submitInfo',
        summary: "Queue a lookup of a video's title, duration and, on request, audio tracks",
        requestBody: { required: true, ...json(ref('InfoRequest')) },
        responses: { '200': { description: 'Queued; poll GET /info/{jobId} within 1 hour.', ...json(ref('InfoSubmitResponse')) }, '400': invalid, '401': unauthorized, '403': error('Credit limit reached.'), '413': error('Request body too large.'), '415': error('The body is not JSON.'), '500': serverError },
      },
    },
    '/info/{jobId}': {
      get: {
        operationId: 'getInfo',
        parameters: [jobIdParameter],
        responses: { '200': { description: 'The info job.', ...json(ref('InfoStatus')) }, '401': unauthorized, '404': error('Not found, or older than 1 hour.'), '500': serverError },
      },
    },
    '/list-channel': {
      post: {
        operationId: 'listChannel',
        summary: 'Recent videos of a channel (add-on)',
        requestBody: { required: true, ...json(ref('ListChannelRequest')) },
        responses: { '200': { description: 'The extractor’s flat listing, passed through.', ...json(ref('ChannelListing')) }, '400': invalid, '401': unauthorized, '403': error('Add-on not enabled, or credit limit reached.'), '413': error('Request body too large.'), '415': error('The body is not JSON.'), '500': serverError },
      },
    },
    '/client-download': {
      post: {
        operationId: 'submitClientDownload',
        summary: 'Resolve direct media links for a video (add-on)',
        requestBody: { required: true, ...json(ref('ClientDownloadRequest')) },
        responses: { '200': { description: 'Queued; poll GET /client-download/{jobId}.', ...json(ref('ClientDownloadSubmitResponse')) }, '400': invalid, '401': unauthorized, '403': error('Add-on not enabled, or credit limit reached.'), '413': error('Request body too large.'), '415': error('The body is not JSON.'), '500': serverError },
      },
    },
    '/client-download/{jobId}': {
      get: {
        operationId: 'getClientDownload',
        parameters: [jobIdParameter],
        responses: { '200': { description: 'The client-download job.', ...json(ref('ClientDownloadStatus')) }, '401': unauthorized, '404': error('Job not found or belongs to another account.'), '500': serverError },
      },
    },
    '/me': {
      get: {
        operationId: 'getMe',
        summary: 'The account, its plan and live balances',
        description: 'No call limit; never charged.',
        responses: { '200': { description: 'The account.', ...json(ref('AccountResponse')) }, '401': unauthorized, '500': serverError },
      },
    },
  },
  components: {
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>. The key also signs webhooks.' } },
    schemas: {
      MediaFormat: {
        type: 'string',
        enum: ['1080', '720', '480', '360', 'audio', 'audio-aac', 'audio-mp3'],
        description: 'Heights deliver MP4 (capped down to fit the per-file limit); audio is the best stream in its own container; audio-aac prefers AAC; audio-mp3 is MP3 at 320 kb/s CBR.',
      },
      DownloadErrorCode: {
        type: 'string',
        enum: ['AGE_RESTRICTED', 'MEMBERS_ONLY', 'PAYMENT_REQUIRED', 'PRIVATE_VIDEO', 'VIDEO_PREMIERE', 'GEO_RESTRICTED', 'VIDEO_PROCESSING', 'VIDEO_UNAVAILABLE', 'DRM_PROTECTED', 'VIDEO_NOT_FOUND', 'FORMAT_UNAVAILABLE', 'LIVE_STREAM_IN_PROGRESS', 'COPYRIGHTED_MUSIC', 'NO_DOWNLOAD_OPT_OUT', 'NETWORK_ERROR'],
        description: 'Every value but NETWORK_ERROR is final; retry NETWORK_ERROR after a short backoff.',
      },
      SubmitDownloadRequest: {
        type: 'object',
        required: ['url'],
        additionalProperties: false,
        properties: {
          url: { type: 'string', description: 'https://{video_host}/watch?v=<id>, https://{short_host}/<id> or https://{video_host}/live/<id>.' },
          format: { ...ref('MediaFormat'), default: 'audio' },
          startTime: { type: 'integer', minimum: 0, description: 'Seconds, inclusive; in [0, duration).' },
          endTime: { type: 'integer', minimum: 1, description: 'Seconds, exclusive; in (0, duration] and greater than startTime.' },
          language: { type: 'string', pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$', description: 'BCP-47; falls back to a prefix match, then the original audio.' },
          webhookUrl: { type: 'string', format: 'uri', maxLength: 2048, description: 'Public http(s) URL; redirects are not followed.' },
        },
      },
      SubmitDownloadResponse: {
        type: 'object',
        required: ['jobId', 'title', 'duration', 'status', 'message'],
        additionalProperties: false,
        properties: { jobId: { type: 'string' }, title: { type: 'string' }, duration: { type: 'integer' }, status: { const: 'IN_QUEUE' }, message: { type: 'string' } },
      },
      DownloadStatus: {
        description: 'One of three shapes selected by status. Webhook bodies use the same schema (completed or failed shape).',
        oneOf: [ref('DownloadPending'), ref('DownloadCompleted'), ref('DownloadFailed')],
        discriminator: {
          propertyName: 'status',
          mapping: {
            IN_QUEUE: '#/components/schemas/DownloadPending',
            IN_PROGRESS: '#/components/schemas/DownloadPending',
            COMPLETED: '#/components/schemas/DownloadCompleted',
            FAILED: '#/components/schemas/DownloadFailed',
          },
        },
      },
      DownloadPending: {
        type: 'object',
        required: ['jobId', 'status', 'title', 'duration', 'url', 'format'],
        additionalProperties: false,
        properties: { ...jobFields, status: { enum: ['IN_QUEUE', 'IN_PROGRESS'] } },
      },
      DownloadCompleted: {
        type: 'object',
        required: ['jobId', 'status', 'url', 'format', 'actualFormat', 'downloadUrl', 'title', 'duration', 'fileSize'],
        additionalProperties: false,
        properties: {
          ...jobFields,
          status: { const: 'COMPLETED' },
          actualFormat: { ...ref('MediaFormat'), description: 'Format delivered.' },
          downloadUrl: { type: 'string', format: 'uri', description: 'Signed, expiring URL of the file.' },
          fileSize: { type: 'integer', minimum: 0, description: 'Bytes.' },
        },
      },
      DownloadFailed: {
        type: 'object',
        required: ['jobId', 'status', 'title', 'duration', 'url', 'format'],
        additionalProperties: false,
        properties: { ...jobFields, status: { const: 'FAILED' }, errorCode: ref('DownloadErrorCode') },
      },
      InfoRequest: {
        type: 'object',
        required: ['url'],
        additionalProperties: false,
        properties: { url: { type: 'string' }, includeAudioTracks: { type: 'boolean', default: false } },
      },
      InfoSubmitResponse: pendingJobAccepted('Poll GET /info/{jobId}; the job is kept for 1 hour.'),
      ClientDownloadSubmitResponse: pendingJobAccepted('Poll GET /client-download/{jobId}.'),
      InfoStatus: {
        oneOf: [
          { type: 'object', required: ['jobId', 'status'], additionalProperties: false, properties: { jobId: { type: 'string' }, status: { const: 'pending' } } },
          { type: 'object', required: ['jobId', 'status', 'result'], additionalProperties: false, properties: { jobId: { type: 'string' }, status: { const: 'success' }, result: ref('VideoInfo') } },
          {
            type: 'object',
            required: ['jobId', 'status', 'error'],
            additionalProperties: false,
            properties: { jobId: { type: 'string' }, status: { const: 'failed' }, error: { type: 'string' }, errorCode: ref('DownloadErrorCode') },
          },
        ],
      },
      VideoInfo: {
        type: 'object',
        required: ['title', 'duration', 'url'],
        properties: { title: { type: 'string' }, duration: { type: 'integer' }, url: { type: 'string' }, audio: { type: 'array', items: ref('AudioTrack') } },
      },
      AudioTrack: {
        type: 'object',
        required: ['type', 'language'],
        properties: { type: { enum: ['original', 'dubbed'] }, language: nullable({ type: 'string' }) },
      },
      ListChannelRequest: {
        type: 'object',
        required: ['channelUrl'],
        additionalProperties: false,
        properties: { channelUrl: { type: 'string' }, maxVideos: { type: 'integer', minimum: 1, maximum: 1000, default: 5 } },
      },
      ChannelListing: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          title: { type: 'string' },
          channel: { type: 'string' },
          channel_id: { type: 'string' },
          channel_url: { type: 'string' },
          entries: {
            type: 'array',
            items: {
              type: 'object',
              properties: { id: { type: 'string' }, title: { type: 'string' }, url: { type: 'string' }, duration: { type: 'number' }, view_count: { type: 'integer' }, uploader: { type: 'string' } },
            },
          },
        },
      },
      ClientDownloadRequest: { type: 'object', required: ['url'], additionalProperties: false, properties: { url: { type: 'string' } } },
      ClientDownloadStatus: {
        oneOf: [
          { type: 'object', required: ['jobId', 'status'], additionalProperties: false, properties: { jobId: { type: 'string' }, status: { const: 'pending' } } },
          { type: 'object', required: ['jobId', 'status', 'result'], additionalProperties: false, properties: { jobId: { type: 'string' }, status: { const: 'success' }, result: ref('ClientDownloadInfo') } },
          { type: 'object', required: ['jobId', 'status', 'error'], additionalProperties: false, properties: { jobId: { type: 'string' }, status: { const: 'failed' }, error: { type: 'string' } } },
        ],
      },
      ClientDownloadInfo: {
        type: 'object',
        required: ['title', 'url', 'duration', 'downloadLinks'],
        properties: {
          title: { type: 'string' },
          url: { type: 'string' },
          duration: { type: 'number' },
          downloadLinks: { type: 'array', items: ref('ClientDownloadLink') },
          description: { type: 'string' },
          author: { type: 'string' },
          authorUrl: { type: 'string' },
          thumbnailUrl: { type: 'string', format: 'uri' },
        },
      },
      ClientDownloadLink: {
        type: 'object',
        required: ['url', 'type', 'hasAudio'],
        properties: {
          url: { type: 'string', format: 'uri' },
          type: { enum: ['video', 'audio'] },
          hasAudio: { type: 'boolean' },
          width: { type: 'integer' },
          height: { type: 'integer' },
          audioBitrate: { type: 'integer' },
          sizeBytes: { type: 'integer' },
        },
      },
      AccountResponse: {
        type: 'object',
        required: ['name', 'email', 'plan', 'balances'],
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          email: { type: 'string' },
          plan: {
            type: 'object',
            required: ['id', 'renewsAt', 'canceledAt'],
            additionalProperties: false,
            properties: {
              id: { enum: ['free', 'starter', 'growth', 'scale', 'custom'] },
              renewsAt: { ...nullable({ type: 'number' }), description: 'Unix ms when the period ends; null on the free plan.' },
              canceledAt: { ...nullable({ type: 'number' }), description: 'Unix ms the cancellation was asked for; the plan ends with the period.' },
            },
          },
          balances: {
            type: 'object',
            required: ['download_count', 'bandwidth_mb', 'info'],
            propertyNames: { enum: ['download_count', 'bandwidth_mb', 'info', 'client_download', 'channel_list'] },
            additionalProperties: ref('FeatureBalance'),
          },
        },
      },
      FeatureBalance: {
        type: 'object',
        required: ['granted', 'used', 'remaining', 'unlimited', 'resetsAt'],
        additionalProperties: false,
        properties: {
          granted: { type: 'number' },
          used: { type: 'number' },
          remaining: { type: 'number' },
          unlimited: { type: 'boolean' },
          resetsAt: nullable({ type: 'number' }),
        },
      },
      ApiError: {
        type: 'object',
        required: ['error'],
        additionalProperties: false,
        properties: { error: { type: 'string' }, details: { type: 'string' } },
      },
    },
  },
} as const;
