import { Type } from '@sinclair/typebox';
import { batchPaths, batchSchemas, batchTag } from './batch-resource.js';
import { accountPaths, accountSchemas } from './account-resource.js';
import { channelListingPaths, channelListingSchemas } from './channel-listing-resource.js';
import { clientDownloadPaths, clientDownloadSchemas } from './client-download-resource.js';
import { downloadPaths, downloadWebhooks } from './download-paths.js';
import { downloadSchemas } from './download-schemas.js';
import { infoPaths, infoSchemas } from './info-resource.js';
import { jobWatchingPaths, jobWatchingSchemas } from './job-watching-paths.js';
import { definePaths, jsonContent } from './schema-kit.js';
import { ApiError, CreditLimitError } from './shared-responses.js';

/**
 * The OpenAPI 3.1 description of the API, written by hand from the contract
 * and assembled here from one part per resource. It is the single source of
 * request validation (request-validator.ts) and of the response shapes tests
 * check (response-validator.ts), and clients read it at /api/v2/openapi.json.
 * Signed file links (/files/...) and the operational endpoints (/healthz,
 * /readyz, /metrics) live outside the API prefixes and are deliberately not
 * described here.
 */

const description = [
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
].join('\n');

const metaPaths = definePaths({
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
          content: jsonContent(
            Type.Unsafe<{ openapi: string; info: object; paths: object }>({
              type: 'object',
              required: ['openapi', 'info', 'paths'],
              properties: { openapi: Type.String() },
            }),
          ),
        },
      },
    },
  },
});

export const apiPaths = {
  ...downloadPaths,
  ...jobWatchingPaths,
  ...infoPaths,
  ...channelListingPaths,
  ...clientDownloadPaths,
  ...batchPaths,
  ...accountPaths,
  ...metaPaths,
};

const assembledDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Video Download Service API',
    version: '2.0.0',
    summary:
      'Server-side video downloads with job polling and webhooks, video metadata, client download links, channel listing and account balances.',
    description,
  },
  servers: [
    { url: '/api/v2', description: 'Current base path (API version 2.0).' },
    { url: '/api/v1', description: 'Legacy base path; serves the same API and keeps working.' },
    { url: '/v2', description: 'Legacy base path; serves the same API and keeps working.' },
  ],
  security: [{ bearerAuth: [] }],
  tags: [
    {
      name: 'Downloads',
      description: 'Server-side downloads of a video or its audio, polled or delivered by webhook.',
    },
    { name: 'Video info', description: 'Title, duration and audio tracks of a video, without downloading it.' },
    { name: 'Client downloads', description: 'Add-on: direct media links the client fetches itself.' },
    { name: 'Channels', description: 'Add-on: recent videos of a channel.' },
    batchTag,
    { name: 'Account', description: 'Plan and live balances.' },
    { name: 'Meta', description: 'This document.' },
  ],
  paths: apiPaths,
  webhooks: downloadWebhooks,
  components: {
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description:
          '`Authorization: Bearer <API_KEY>` with the API key issued to the account. The same key signs the webhooks sent to the account.',
      },
    },
    schemas: {
      ...downloadSchemas,
      ...infoSchemas,
      ...channelListingSchemas,
      ...clientDownloadSchemas,
      ...accountSchemas,
      ...batchSchemas,
      ApiError,
      ...jobWatchingSchemas,
      CreditLimitError,
    },
  },
} as const;

/**
 * The document as plain JSON, as it is served: the TypeBox schemas it is
 * built from carry symbol keys only the compiler needs. Its type is kept, so
 * operation ids, parameters and body types can be read from it.
 */
export const openApiDocument: typeof assembledDocument = JSON.parse(JSON.stringify(assembledDocument));
