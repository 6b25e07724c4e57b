import { Type } from '@sinclair/typebox';
import { jsonContent, ref } from '../../http/openapi/schema-kit.js';
import { ApiError, errorResponse, idPathParameter, responses } from '../../http/openapi/shared-responses.js';

/** Every admin operation is served at the service's root under /admin/v1, not under the API's base paths. */
export const adminServers = [{ url: '/admin/v1', description: 'The admin API: operator tokens only.' }];
export const operatorSecurity = [{ operatorToken: [] }];

/** A schema another feature's part declares: the document is assembled from every part. */
export const declaredElsewhere = (name: string) =>
  Type.Unsafe<Record<string, unknown>>({ $ref: `#/components/schemas/${name}` });

export const accountIdParameter = idPathParameter('accountId', 'The account’s id.');

export const idempotencyKeyHeader = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    'Makes a retried write happen once: the answer is kept under the operator token and the key, and the same request again gets it again (with `Idempotent-Replayed: true`); the same key with another request answers `422`.',
  schema: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: '^[\\x21-\\x7E]+$',
    description: '1 to 255 visible ASCII characters',
  }),
};

const unauthorized = {
  description:
    'The operator token is missing (send `Authorization: Bearer <OPERATOR_TOKEN>`) or not recognised (`Invalid operator token`). An account’s API key is never one.',
  content: jsonContent(ref('ApiError', ApiError), { error: 'Invalid operator token' }),
};

/** What any admin operation may answer besides its own. */
export const adminResponses = {
  '401': unauthorized,
  '500': responses.serverError,
  '503': responses.brieflyUnavailable,
};

/** And what any admin write may answer: a `read` token, a reused key, a retry whose answer was lost. */
export const adminWriteResponses = {
  ...adminResponses,
  '403': errorResponse(
    'The token’s scope is `read`: writes need a `write` token.',
    'This operator token may only read: writes need a token of scope write',
  ),
  '422': errorResponse(
    'The Idempotency-Key was already used with a different request.',
    'This Idempotency-Key was already used with a different request; use a new key for a new request',
  ),
};

export const accountNotFound = errorResponse('No account has that id.', 'Account not found');
