import { Type } from '@sinclair/typebox';
import { closed } from '../../http/openapi/job-shapes.js';
import { definePaths, jsonContent, nullable, ref, stringEnum } from '../../http/openapi/schema-kit.js';
import { errorResponse, rateLimited, responses } from '../../http/openapi/shared-responses.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';

/** The account: its plan and live balances. */

const AccountPlan = Type.Object(
  {
    id: stringEnum(['free', 'starter', 'growth', 'scale', 'custom']),
    renewsAt: nullable('number', {
      description: 'Unix milliseconds when the period ends and quotas renew; null on the free plan.',
    }),
    canceledAt: nullable('number', {
      description: 'When set (Unix milliseconds), the plan is scheduled to cancel at the end of the current period.',
    }),
  },
  closed,
);

const FeatureId = stringEnum(['download_count', 'bandwidth_mb', 'info', 'client_download', 'channel_list'], {
  description: '`client_download` and `channel_list` appear only where the add-on is enabled.',
});

const FeatureBalance = Type.Object(
  {
    granted: Type.Number({ description: 'Units in the current cycle, extra grants included.' }),
    used: Type.Number(),
    remaining: Type.Number({ description: 'Units left before the limit, or overage pricing, applies.' }),
    unlimited: Type.Boolean({ description: 'When true, ignore the numeric fields.' }),
    resetsAt: nullable('number', {
      description:
        'Unix milliseconds of the next reset; null for one-off grants that never reset (such as the free plan).',
    }),
  },
  closed,
);

type FeatureBalanceBody = typeof FeatureBalance.static;

const Balances = Type.Unsafe<
  Record<'download_count' | 'bandwidth_mb' | 'info', FeatureBalanceBody> &
    Partial<Record<typeof FeatureId.static, FeatureBalanceBody>>
>({
  type: 'object',
  description: 'Live balance of every metered feature, keyed by feature ID.',
  required: ['download_count', 'bandwidth_mb', 'info'],
  propertyNames: ref('FeatureId', FeatureId),
  additionalProperties: ref('FeatureBalance', FeatureBalance),
});

const SubscriptionHoldings = Type.Object(
  {
    allowance: Type.Integer({
      minimum: 0,
      description: 'How many subscriptions (`POST /subscriptions`) the plan allows the account to hold at once.',
    }),
    held: Type.Integer({ minimum: 0, description: 'How many it holds now (deleted ones free their place at once).' }),
  },
  closed,
);

const AccountResponse = Type.Object(
  {
    name: Type.String({ description: 'Account holder’s name.' }),
    email: Type.String({ description: 'Account email.' }),
    plan: ref('AccountPlan', AccountPlan),
    balances: ref('Balances', Balances),
    subscriptions: ref('SubscriptionHoldings', SubscriptionHoldings),
  },
  closed,
);

const RunningBalance = Type.Object(
  {
    used: Type.Number(),
    remaining: Type.Union([Type.Number(), Type.Literal('unlimited')]),
  },
  closed,
);

const StatementEntry = Type.Object(
  {
    kind: stringEnum(['charge', 'lookup-charge', 'release', 'grant', 'period'], {
      description:
        '`charge`: a completed download billed; `lookup-charge`: an info, client-download or channel-list charge; `release`: a reservation freed uncharged (a failed, cancelled or abandoned job or lookup); `grant`: extra units; `period`: a plan change or renewal (usage reset).',
    }),
    at: Type.String({ format: 'date-time' }),
    revision: Type.Integer({ minimum: 0, description: 'The event’s place in the account’s stream.' }),
    jobId: Type.Optional(Type.String()),
    fileSizeBytes: Type.Optional(Type.Integer({ minimum: 0 })),
    bandwidthMb: Type.Optional(Type.Number()),
    downloads: Type.Optional(Type.Integer()),
    feature: Type.Optional(
      Type.String({ description: 'The feature charged, granted or released (`download` for a download job).' }),
    ),
    lookupId: Type.Optional(Type.String()),
    reference: Type.Optional(Type.String({ description: 'The job or lookup whose reservation a release freed.' })),
    subject: Type.Optional(Type.String({ description: 'The URL a lookup looked up.' })),
    units: Type.Optional(Type.Integer()),
    planId: Type.Optional(Type.String()),
    periodStart: Type.Optional(Type.String({ format: 'date-time' })),
    periodEnd: Type.Optional(nullable('string', { format: 'date-time' })),
    balances: Type.Record(Type.String(), ref('RunningBalance', RunningBalance), {
      description: 'Per visible feature, used and remaining after this entry.',
    }),
  },
  closed,
);

const Statement = Type.Object(
  {
    accountId: Type.String(),
    entries: Type.Array(ref('StatementEntry', StatementEntry)),
    nextCursor: nullable('string', { description: 'Pass as `cursor` for the next page; null on the last page.' }),
    balances: ref('Balances', Balances),
  },
  closed,
);

const accountSchemas = {
  AccountResponse,
  AccountPlan,
  SubscriptionHoldings,
  FeatureId,
  Balances,
  FeatureBalance,
  RunningBalance,
  StatementEntry,
  Statement,
};

/** `from`, `to`, `limit`, `cursor`: a statement's page, for its holder and for operators alike. */
export const statementParameters = [
  {
    name: 'from',
    in: 'query',
    required: false,
    description: 'Entries at or after this time (ISO 8601).',
    schema: Type.String({ format: 'date-time' }),
  },
  {
    name: 'to',
    in: 'query',
    required: false,
    description: 'Entries before this time (ISO 8601).',
    schema: Type.String({ format: 'date-time' }),
  },
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: 'Entries per page.',
    schema: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  },
  {
    name: 'cursor',
    in: 'query',
    required: false,
    description: 'The `nextCursor` of the previous page, as given.',
    schema: Type.String({ minLength: 1, maxLength: 64 }),
  },
] as const;

const accountPaths = definePaths({
  '/me': {
    get: {
      operationId: 'getMe',
      tags: ['Account'],
      summary: 'The account, its plan and live balances',
      description:
        'No call limit, never charged. Balances are keyed by feature: `download_count`, `bandwidth_mb` and `info` always, `client_download` and `channel_list` where the add-on is enabled.',
      responses: {
        '200': { description: 'The account.', content: jsonContent(ref('AccountResponse', AccountResponse)) },
        '401': responses.unauthorized,
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
  },
  '/me/statement': {
    get: {
      operationId: 'getStatement',
      tags: ['Account'],
      summary: 'The account’s own statement: every charge, release, grant and period change, with running balances',
      description: [
        'The lines the auditors’ replay of the account’s stream prints (`npm run audit`), oldest first, each with the balances after it;',
        '`balances` is what the whole stream folds to now, as `GET /me` shows it. With `Accept: text/csv`, the page as CSV (one row per',
        'entry, a column per feature’s used and remaining, and `nextCursor` in an `X-Next-Cursor` header, absent on the last page). Free; unlike `GET /me` it counts against the request rate limits, since it replays the stream.',
      ].join(' '),
      parameters: statementParameters,
      responses: {
        '200': {
          description: 'A page of the statement.',
          content: {
            ...jsonContent(ref('Statement', Statement)),
            'text/csv': { schema: Type.String() },
          },
        },
        '400': errorResponse(
          '`from`, `to`, `limit` or `cursor` is malformed, or `to` is not after `from`; `error` names it.',
          'to must be after from',
        ),
        '401': responses.unauthorized,
        '429': rateLimited,
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends AccountPaths {}
  interface DocumentedSchemas extends AccountSchemas {}
}
type AccountPaths = typeof accountPaths;
type AccountSchemas = typeof accountSchemas;

export const accountOpenApi: OpenApiPart = {
  tags: [{ name: 'Account', description: 'Plan, live balances and the statement.' }],
  paths: accountPaths,
  schemas: accountSchemas,
};
