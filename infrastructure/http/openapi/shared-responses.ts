import { type TSchema, Type } from '@sinclair/typebox';
import { jsonContent, ref } from './schema-kit.js';

/** The body of every refusal. */
export const ApiError = Type.Object(
  {
    error: Type.String({ description: 'What went wrong, in words.' }),
    details: Type.Optional(
      Type.String({
        description:
          'Extra context, for instance the DownloadErrorCode of a video that cannot be downloaded. The extractor’s own output is kept for the operator’s log.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreditLimitError = Type.Unsafe<{ error: 'Credit limit reached'; details?: string }>({
  description: 'The ApiError of a used-up plan limit.',
  allOf: [ref('ApiError', ApiError), { properties: { error: { const: 'Credit limit reached' } } }],
});

/** The ApiError of a suspended or closed account, or of a read-only key asked to write: nothing else answers 403 in these words. */
export const AccountRefusedError = Type.Unsafe<{ error: string; details?: string }>({
  description: 'The ApiError of a suspended or closed account, or of a read-only key asked to write.',
  allOf: [
    ref('ApiError', ApiError),
    { properties: { error: { pattern: '^This (account is (closed$|suspended: )|API key is read-only: )' } } },
  ],
});

export const errorResponse = (description: string, example: string, schema: TSchema = ref('ApiError', ApiError)) => ({
  description,
  content: jsonContent(schema, { error: example }),
});

/** A path parameter naming something the service issued: UUIDs, so anything outside this shape names nothing. */
export const idPathParameter = <Name extends string>(name: Name, description: string) => ({
  name,
  in: 'path' as const,
  required: true,
  description,
  schema: Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$' }),
});

export const jobIdParameter = (description: string) => idPathParameter('jobId', description);

export const responses = {
  unauthorized: {
    description:
      'The API key is missing (send `Authorization: Bearer <API_KEY>`), malformed (a space or tab inside it: `Malformed API key: …`) or not recognised (`Invalid API key`). Never charged.',
    content: jsonContent(ref('ApiError', ApiError), { error: 'Invalid API key' }),
  },
  creditLimitReached: errorResponse(
    'The plan’s bandwidth allowance (plus any overage allowance) or a request quota is used up. `error` is exactly `Credit limit reached`. ' +
      'Not charged; cleared by upgrading the plan or at the next billing cycle (see GET /me for the balances).',
    'Credit limit reached',
    ref('CreditLimitError', CreditLimitError),
  ),
  addOnOrCreditLimit: errorResponse(
    'The add-on is not enabled for the account (`error` names it: `The <add-on> add-on is not enabled for this account`), ' +
      'or its quota is used up (`error` is then exactly `Credit limit reached`). Checked before anything is looked up; not charged, and no job is created.',
    'The channel_list add-on is not enabled for this account',
  ),
  payloadTooLarge: errorResponse(
    'The request body is larger than the server accepts (64 KiB by default).',
    'Request body too large',
  ),
  unsupportedMediaType: errorResponse(
    'The request body is not sent as `application/json`.',
    'Content-Type must be application/json',
  ),
  brieflyUnavailable: {
    description:
      'The service’s database or queue is briefly out of reach: the request could not be counted against the rate limits in time (then nothing was done), or it met the outage on its way. Retry after `Retry-After` seconds; a submission retried with the same `Idempotency-Key` is not done twice.',
    headers: {
      'Retry-After': {
        required: true,
        description: 'Seconds to wait before trying again.',
        schema: Type.Integer({ minimum: 1 }),
      },
    },
    content: jsonContent(ref('ApiError', ApiError), {
      error: 'Requests cannot be counted against the rate limits just now; retry after 2 s',
    }),
  },
  serverError: {
    description:
      'Unexpected server error, or the platform could not be reached. `error` says what happened in the service’s words; the extractor’s own output goes to the operator’s log, not to the client. Retry after a short backoff.',
    content: jsonContent(ref('ApiError', ApiError), { error: 'Internal server error' }),
  },
};

export const jobNotFound = errorResponse(
  'No such job: it does not exist, has expired, or belongs to another account.',
  'Download job not found',
);

/** The per-second request allowance of a key or account (an extension: the contract shows no rate limits). */
export const rateLimitHeaders = (required: boolean) => ({
  'Retry-After': {
    required,
    description: 'Seconds to wait before trying again.',
    schema: Type.Integer({ minimum: 1 }),
  },
  'RateLimit-Limit': {
    required,
    description: 'Requests allowed per window of the bucket that refused (key or account).',
    schema: Type.Integer({ minimum: 1 }),
  },
  'RateLimit-Remaining': {
    required,
    description: 'Requests left in the current window.',
    schema: Type.Integer({ minimum: 0 }),
  },
  'RateLimit-Reset': {
    required,
    description: 'Seconds until the window resets.',
    schema: Type.Integer({ minimum: 0 }),
  },
});

export const rateLimitedDescription =
  'Too many requests per second for this API key or for its account (see `RateLimit-*`; configured per plan). Not charged. Retry after `Retry-After` seconds.';

export const rateLimited = {
  description: rateLimitedDescription,
  headers: rateLimitHeaders(true),
  content: jsonContent(ref('ApiError', ApiError), {
    error: 'Rate limit exceeded: at most 10 requests per second for this API key; retry after 1 s',
  }),
};

/** What any authenticated route may answer besides its own: the key refused, the rate limits, a defect, an outage. */
export const authenticatedResponses = {
  '401': responses.unauthorized,
  '429': rateLimited,
  '500': responses.serverError,
  '503': responses.brieflyUnavailable,
};

/** `limit` and `cursor`, for the routes that page with an opaque cursor (`nextCursor` of the previous page). */
export const cursorPageParameters = (items: string) => [
  {
    name: 'limit' as const,
    in: 'query' as const,
    required: false,
    description: `${items} per page.`,
    schema: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  },
  {
    name: 'cursor' as const,
    in: 'query' as const,
    required: false,
    description: 'The `nextCursor` of the previous page, as given.',
    schema: Type.String({ minLength: 1, maxLength: 512 }),
  },
];
