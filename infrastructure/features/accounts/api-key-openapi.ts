import { Type } from '@sinclair/typebox';
import { definePaths, jsonContent, nullable, ref } from '../../http/openapi/schema-kit.js';
import { errorResponse, rateLimited, responses, idPathParameter } from '../../http/openapi/shared-responses.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';

/** An account holder's own API keys: list, issue, revoke. */

const ApiKey = Type.Object(
  {
    keyId: Type.String(),
    name: nullable('string', { description: 'The label given when the key was issued.' }),
    prefix: Type.String({ description: 'The first characters of the key, as it was shown when issued.' }),
    readOnly: Type.Boolean({ description: 'The key may poll and list, never submit or change anything.' }),
    issuedAt: Type.String({ format: 'date-time' }),
    revokedAt: nullable('string', { format: 'date-time' }),
    lastUsedAt: nullable('string', {
      format: 'date-time',
      description: 'When a request last came with the key, to the minute; null if none ever did.',
    }),
  },
  { additionalProperties: false },
);

const ApiKeyList = Type.Object({ keys: Type.Array(ref('ApiKey', ApiKey)) }, { additionalProperties: false });

const IssueApiKeyRequest = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A label of your choosing.' })),
    readOnly: Type.Optional(
      Type.Boolean({
        description:
          'A read-only key polls and lists (every GET) and is refused anything else with 403: for dashboards and monitors.',
      }),
    ),
  },
  { additionalProperties: false },
);

const IssuedApiKey = Type.Object(
  {
    keyId: Type.String(),
    name: nullable('string'),
    readOnly: Type.Boolean(),
    apiKey: Type.String({ description: 'The key itself: shown this once, kept by the service only as a hash.' }),
  },
  { additionalProperties: false },
);

const apiKeySchemas = { ApiKey, ApiKeyList, IssueApiKeyRequest, IssuedApiKey };

const keyIdParameter = idPathParameter('keyId', 'The `keyId` of one of the account’s keys.');

const apiKeyPaths = definePaths({
  '/me/keys': {
    get: {
      operationId: 'listApiKeys',
      tags: ['Account'],
      summary: 'Every API key the account was ever issued, oldest first, never a secret',
      description: 'Revoked keys stay listed with `revokedAt`.',
      responses: {
        '200': { description: 'The keys.', content: jsonContent(ref('ApiKeyList', ApiKeyList)) },
        '401': responses.unauthorized,
        '429': rateLimited,
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
    post: {
      operationId: 'issueApiKey',
      tags: ['Account'],
      summary: 'Issue another API key for the account',
      description:
        'The key is in the answer once; the service keeps only its hash. An account holds at most 20 active keys. Any active key of the account may issue one.',
      requestBody: {
        required: true,
        content: jsonContent(ref('IssueApiKeyRequest', IssueApiKeyRequest), { name: 'staging' }),
      },
      responses: {
        '201': { description: 'The new key.', content: jsonContent(ref('IssuedApiKey', IssuedApiKey)) },
        '400': errorResponse(
          'The body is malformed (`error` names the field), or the account already holds 20 active keys.',
          'An account holds at most 20 active API keys; revoke one before issuing another',
        ),
        '401': responses.unauthorized,
        '429': rateLimited,
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
  },
  '/me/keys/{keyId}': {
    delete: {
      operationId: 'revokeApiKey',
      tags: ['Account'],
      summary: 'Revoke one of the account’s API keys',
      description:
        'From then on the key answers 401, and its open event streams end. Revoking the key the request is made with is allowed; revoking a revoked key again does nothing.',
      parameters: [keyIdParameter],
      responses: {
        '204': { description: 'Revoked.' },
        '401': responses.unauthorized,
        '404': errorResponse('No key of this account has that id.', 'API key not found'),
        '429': rateLimited,
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends ApiKeyPaths {}
  interface DocumentedSchemas extends ApiKeySchemas {}
}
type ApiKeyPaths = typeof apiKeyPaths;
type ApiKeySchemas = typeof apiKeySchemas;

export const apiKeyOpenApi: OpenApiPart = { paths: apiKeyPaths, schemas: apiKeySchemas };
