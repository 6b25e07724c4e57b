import { Type } from '@sinclair/typebox';
import { ADD_ON_IDS, FEATURE_IDS, PLAN_IDS } from '../../../domain/account/plan.js';
import { closed } from '../../http/openapi/job-shapes.js';
import { definePaths, jsonContent, nullable, ref, stringEnum } from '../../http/openapi/schema-kit.js';
import { errorResponse, idPathParameter } from '../../http/openapi/shared-responses.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';
import {
  accountIdParameter,
  accountNotFound,
  adminServers,
  adminWriteResponses,
  idempotencyKeyHeader,
  operatorSecurity,
} from './admin-openapi-kit.js';

/** The admin API's writes to accounts: each one an account command, named by the operator's token in its events. */

const OpenAdminAccountRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^@\\s]+@[^@\\s]+$' }),
    plan: Type.Optional(stringEnum(PLAN_IDS, { default: 'free' })),
    addOns: Type.Optional(Type.Array(stringEnum(ADD_ON_IDS), { maxItems: 2, uniqueItems: true })),
  },
  closed,
);

const OpenedAccount = Type.Object(
  {
    accountId: Type.String(),
    keyId: Type.String(),
    apiKey: Type.String({ description: 'The account’s first API key: shown this once.' }),
  },
  closed,
);

const ChangePlanRequest = Type.Object({ plan: stringEnum(PLAN_IDS) }, closed);
const GrantRequest = Type.Object(
  {
    feature: stringEnum(FEATURE_IDS),
    units: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  closed,
);
const SuspendRequest = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, description: 'Shown to the holder in every refusal.' }) },
  closed,
);
const CloseRequest = Type.Object(
  {
    erase: Type.Optional(
      Type.Boolean({
        description:
          'Also erase its personal data: its data key is destroyed, so its name, email, URLs, titles and webhook secrets read as `[erased …]` in every replay, read models drop them and its files are deleted. Amounts stay, so its statement still balances. Cannot be undone.',
      }),
    ),
  },
  closed,
);
const AdminIssueKeyRequest = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    readOnly: Type.Optional(
      Type.Boolean({ description: 'The key may poll and list, never submit or change anything.' }),
    ),
  },
  closed,
);
const AdminIssuedKey = Type.Object(
  {
    keyId: Type.String(),
    name: nullable('string'),
    readOnly: Type.Boolean(),
    apiKey: Type.String({ description: 'Shown this once.' }),
  },
  closed,
);

const adminAccountWriteSchemas = {
  OpenAdminAccountRequest,
  OpenedAccount,
  ChangePlanRequest,
  GrantRequest,
  SuspendRequest,
  CloseRequest,
  AdminIssueKeyRequest,
  AdminIssuedKey,
};

const common = { tags: ['Admin'], servers: adminServers, security: operatorSecurity };
const account = { description: 'The account after the change.', content: jsonContent(ref('AdminAccount', Type.Any())) };
const malformed = errorResponse('The body is malformed; `error` names the field.', 'plan must be one of …');
const conflict = errorResponse(
  'The account is closed (nothing changes it any more), or a retry’s first attempt was carried out but its answer not kept.',
  'This account is closed',
);

/** A write to one account that answers the account. */
function accountWrite<const Id extends string>(operationId: Id, summary: string, description: string) {
  return {
    ...common,
    operationId,
    summary,
    description,
    parameters: [accountIdParameter, idempotencyKeyHeader],
    responses: { '200': account, '400': malformed, '404': accountNotFound, '409': conflict, ...adminWriteResponses },
  } as const;
}

const addOnParameter = {
  name: 'addOn',
  in: 'path',
  required: true,
  description: 'The add-on.',
  schema: stringEnum(ADD_ON_IDS),
} as const;
const keyIdParameter = idPathParameter('keyId', 'One of the account’s keys.');

/** `POST /accounts`, which shares its path with the search's GET, declared there. */
export const openAccountOperation = {
  ...common,
  operationId: 'adminOpenAccount',
  summary: 'Open an account and issue its first API key',
  description: 'The key is in the answer once.',
  parameters: [idempotencyKeyHeader],
  requestBody: { required: true, content: jsonContent(ref('OpenAdminAccountRequest', OpenAdminAccountRequest)) },
  responses: {
    '201': { description: 'The account and its key.', content: jsonContent(ref('OpenedAccount', OpenedAccount)) },
    '400': malformed,
    '409': conflict,
    ...adminWriteResponses,
  },
} as const;

const adminAccountWritePaths = definePaths({
  '/accounts/{accountId}/plan': {
    post: {
      ...accountWrite('adminChangePlan', 'Change the plan', 'A new billing period starts now (usage reset).'),
      requestBody: { required: true, content: jsonContent(ref('ChangePlanRequest', ChangePlanRequest)) },
    },
  },
  '/accounts/{accountId}/cancellation': {
    post: accountWrite(
      'adminScheduleCancellation',
      'Schedule the plan’s cancellation',
      'At the end of the period the account falls back to the free plan.',
    ),
  },
  '/accounts/{accountId}/add-ons/{addOn}': {
    post: {
      ...accountWrite('adminEnableAddOn', 'Enable an add-on', 'Its balance shows at once.'),
      parameters: [accountIdParameter, addOnParameter, idempotencyKeyHeader],
    },
    delete: {
      ...accountWrite('adminDisableAddOn', 'Disable an add-on', 'Lookups of it are refused from then on.'),
      parameters: [accountIdParameter, addOnParameter, idempotencyKeyHeader],
    },
  },
  '/accounts/{accountId}/grants': {
    post: {
      ...accountWrite('adminGrantUnits', 'Grant extra units', 'For the current period (for good on the free plan).'),
      requestBody: { required: true, content: jsonContent(ref('GrantRequest', GrantRequest)) },
    },
  },
  '/accounts/{accountId}/keys': {
    post: {
      ...common,
      operationId: 'adminIssueKey',
      summary: 'Issue another API key for the account',
      description: 'Shown once. An account holds at most 20 active keys.',
      parameters: [accountIdParameter, idempotencyKeyHeader],
      requestBody: { required: true, content: jsonContent(ref('AdminIssueKeyRequest', AdminIssueKeyRequest)) },
      responses: {
        '201': { description: 'The key.', content: jsonContent(ref('AdminIssuedKey', AdminIssuedKey)) },
        '400': malformed,
        '404': accountNotFound,
        '409': conflict,
        ...adminWriteResponses,
      },
    },
  },
  '/accounts/{accountId}/keys/{keyId}': {
    delete: {
      ...accountWrite('adminRevokeKey', 'Revoke one of the account’s keys', 'It answers 401 from then on.'),
      parameters: [accountIdParameter, keyIdParameter, idempotencyKeyHeader],
    },
  },
  '/accounts/{accountId}/suspension': {
    post: {
      ...accountWrite(
        'adminSuspendAccount',
        'Suspend the account',
        'Every request of its keys answers 403 with the reason until it is reactivated; jobs under way finish and are charged.',
      ),
      requestBody: { required: true, content: jsonContent(ref('SuspendRequest', SuspendRequest)) },
    },
    delete: accountWrite('adminReactivateAccount', 'Reactivate a suspended account', 'Its keys work again at once.'),
  },
  '/accounts/{accountId}/closure': {
    post: {
      ...accountWrite(
        'adminCloseAccount',
        'Close the account for good (and erase it)',
        'Its keys answer 403 (`This account is closed`); jobs under way finish and are charged; nothing reopens it. With `erase`, also on an account already closed, its personal data is erased (crypto-shredding).',
      ),
      requestBody: { required: false, content: jsonContent(ref('CloseRequest', CloseRequest)) },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends AdminAccountWritePaths {}
  interface DocumentedSchemas extends AdminAccountWriteSchemas {}
}
type AdminAccountWritePaths = typeof adminAccountWritePaths;
type AdminAccountWriteSchemas = typeof adminAccountWriteSchemas;

export const adminAccountWriteOpenApi: OpenApiPart = {
  paths: adminAccountWritePaths,
  schemas: adminAccountWriteSchemas,
};
