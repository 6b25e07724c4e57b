import { Type } from '@sinclair/typebox';
import type { OpenApiPart } from './openapi-part.js';
import { definePaths, jsonContent } from './schema-kit.js';
import { AccountRefusedError, ApiError, CreditLimitError } from './shared-responses.js';

/**
 * The OpenAPI 3.1 description of the API, written by hand from the contract
 * and assembled here from the features' parts (each feature's folder holds
 * its paths and schemas) and this document's own. It is the single source of
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

/**
 * The document's paths, component schemas and webhooks, as types: each part adds its own by declaration merging, beside
 * them (`declare module '…/document.js' { interface DocumentedPaths extends … {} }`), so operation ids, parameters
 * and bodies are read from the parts' types.
 */
export interface DocumentedPaths extends MetaPaths {}
export interface DocumentedSchemas extends MetaSchemas {}
// biome-ignore lint/suspicious/noEmptyInterface: filled by the parts' declarations
export interface DocumentedWebhooks {}
type MetaPaths = typeof metaPaths;
type MetaSchemas = {
  ApiError: typeof ApiError;
  CreditLimitError: typeof CreditLimitError;
  AccountRefusedError: typeof AccountRefusedError;
};

/** The document's own part: itself, and the error shapes every feature answers with. */
const metaPart: OpenApiPart = {
  tags: [{ name: 'Meta', description: 'This document.' }],
  paths: metaPaths,
  schemas: { ApiError, CreditLimitError, AccountRefusedError },
};

/** The document as plain JSON, as it is served: the TypeBox schemas it is built from carry symbol keys only the compiler needs. */
export function assembleOpenApiDocument(features: readonly OpenApiPart[]): OpenApiDocument {
  const parts = [...features, metaPart];
  const gather = (pick: (part: OpenApiPart) => object | undefined) =>
    Object.assign({}, ...parts.map((part) => pick(part) ?? {}));
  const document = {
    ...DOCUMENT_HEAD,
    tags: parts.flatMap((part) => part.tags ?? []),
    paths: gather((part) => part.paths),
    webhooks: gather((part) => part.webhooks),
    components: { securitySchemes: SECURITY_SCHEMES, schemas: gather((part) => part.schemas) },
  };
  const plain = JSON.parse(JSON.stringify(document));
  plain.paths = withAccountRefusals(plain.paths);
  return plain;
}

const ACCOUNT_REFUSED =
  'The account is suspended by an operator (`This account is suspended: <reason>. …`) or closed (`This account is closed`): every request of its keys is refused until it is reactivated. Or, on any method but GET, the key is read-only (`This API key is read-only: …`).';

/**
 * Every operation behind an account's key may answer 403 for a suspended or closed account, whatever else it answers
 * 403 for: added to each such operation here, once, rather than in every part.
 */
function withAccountRefusals(paths: Record<string, Record<string, PlainOperation>>) {
  for (const pathItem of Object.values(paths))
    for (const operation of Object.values(pathItem)) {
      // Operations with their own security (the document itself, the admin API) are not behind an account's key.
      if (operation.security !== undefined) continue;
      const own = operation.responses['403'];
      const refused = { $ref: '#/components/schemas/AccountRefusedError' };
      operation.responses['403'] =
        own === undefined
          ? { description: ACCOUNT_REFUSED, content: { 'application/json': { schema: refused } } }
          : {
              ...own,
              description: `${own.description} Or: ${ACCOUNT_REFUSED}`,
              content: {
                'application/json': {
                  ...own.content['application/json'],
                  schema: { anyOf: [own.content['application/json'].schema, refused] },
                },
              },
            };
    }
  return paths;
}

interface PlainOperation {
  security?: unknown;
  responses: Record<string, { description: string; content: { 'application/json': { schema: unknown } } }>;
}

export interface OpenApiDocument {
  openapi: string;
  info: (typeof DOCUMENT_HEAD)['info'];
  servers: readonly { url: string; description: string }[];
  security: readonly object[];
  tags: readonly { name: string; description: string }[];
  paths: DocumentedPaths;
  webhooks: DocumentedWebhooks;
  components: { securitySchemes: typeof SECURITY_SCHEMES; schemas: DocumentedSchemas };
}

const DOCUMENT_HEAD = {
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
};

const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      '`Authorization: Bearer <API_KEY>` with the API key issued to the account. The same key signs the webhooks sent to the account.',
  },
  operatorToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      '`Authorization: Bearer <OPERATOR_TOKEN>`, for the admin API only: issued by `npm run admin -- issue-operator-token`, scope `read` or `write`.',
  },
};
