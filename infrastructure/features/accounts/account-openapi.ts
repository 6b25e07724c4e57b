import { Type } from '@sinclair/typebox';
import { closed } from '../../http/openapi/job-shapes.js';
import { definePaths, jsonContent, nullable, ref, stringEnum } from '../../http/openapi/schema-kit.js';
import { responses } from '../../http/openapi/shared-responses.js';
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

const AccountResponse = Type.Object(
  {
    name: Type.String({ description: 'Account holder’s name.' }),
    email: Type.String({ description: 'Account email.' }),
    plan: ref('AccountPlan', AccountPlan),
    balances: ref('Balances', Balances),
  },
  closed,
);

const accountSchemas = { AccountResponse, AccountPlan, FeatureId, Balances, FeatureBalance };

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
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends AccountPaths {}
  interface DocumentedSchemas extends AccountSchemas {}
}
type AccountPaths = typeof accountPaths;
type AccountSchemas = typeof accountSchemas;

export const accountOpenApi: OpenApiPart = {
  tags: [{ name: 'Account', description: 'Plan and live balances.' }],
  paths: accountPaths,
  schemas: accountSchemas,
};
