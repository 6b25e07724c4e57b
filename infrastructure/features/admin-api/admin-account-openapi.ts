import { Type } from '@sinclair/typebox';
import { PLAN_IDS } from '../../../domain/account/plan.js';
import { statementParameters } from '../accounts/account-openapi.js';
import { closed } from '../../http/openapi/job-shapes.js';
import { definePaths, jsonContent, nullable, ref, stringEnum } from '../../http/openapi/schema-kit.js';
import { cursorPageParameters, errorResponse } from '../../http/openapi/shared-responses.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';
import { openAccountOperation } from './admin-account-write-openapi.js';
import {
  accountIdParameter,
  accountNotFound,
  adminResponses,
  adminServers,
  declaredElsewhere,
  operatorSecurity,
} from './admin-openapi-kit.js';

/** The admin API's view of accounts: search, one account whole, its statement and its jobs. */

const AccountStatus = stringEnum(['active', 'suspended', 'closed']);

const AdminAccountSummary = Type.Object(
  {
    accountId: Type.String(),
    name: Type.String(),
    email: Type.String(),
    status: ref('AccountStatus', AccountStatus),
    plan: nullable('string'),
    addOns: Type.Array(Type.String()),
    usage: Type.Object(
      {
        download_count: Type.Number({ description: 'Downloads charged in the current period.' }),
        bandwidth_mb: Type.Number({ description: 'Megabytes charged in the current period.' }),
      },
      closed,
    ),
  },
  closed,
);

const AdminAccountList = Type.Object(
  {
    accounts: Type.Array(ref('AdminAccountSummary', AdminAccountSummary)),
    total: Type.Integer({ minimum: 0, description: 'Accounts matching the search, all pages together.' }),
    nextCursor: nullable('string'),
  },
  closed,
);

const AdminAccount = Type.Object(
  {
    accountId: Type.String(),
    name: Type.String(),
    email: Type.String(),
    status: ref('AccountStatus', AccountStatus),
    suspension: Type.Union([
      Type.Object({ reason: Type.String(), since: Type.String({ format: 'date-time' }) }, closed),
      Type.Null(),
    ]),
    closedAt: nullable('string', { format: 'date-time' }),
    erasedAt: nullable('string', {
      format: 'date-time',
      description: 'When its personal data was erased: its name, email, URLs and titles read as `[erased …]` since.',
    }),
    plan: declaredElsewhere('AccountPlan'),
    addOns: Type.Array(Type.String()),
    balances: declaredElsewhere('Balances'),
    subscriptions: declaredElsewhere('SubscriptionHoldings'),
    pendingDownloads: Type.Integer({ minimum: 0, description: 'Downloads queued or running, not yet charged.' }),
    keys: Type.Array(declaredElsewhere('ApiKey'), { description: 'Every key ever issued; never a secret.' }),
  },
  closed,
);

const AdminJob = Type.Object(
  {
    jobId: Type.String(),
    status: Type.String(),
    url: Type.String(),
    format: Type.String(),
    title: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    completedAt: nullable('string', { format: 'date-time' }),
    fileSize: nullable('integer'),
    errorCode: nullable('string'),
  },
  closed,
);

const AdminJobList = Type.Object(
  { jobs: Type.Array(ref('AdminJob', AdminJob)), nextCursor: nullable('string') },
  closed,
);

const adminAccountSchemas = {
  AccountStatus,
  AdminAccountSummary,
  AdminAccountList,
  AdminAccount,
  AdminJob,
  AdminJobList,
};

const common = { tags: ['Admin'], servers: adminServers, security: operatorSecurity };

const adminAccountPaths = definePaths({
  '/accounts': {
    get: {
      ...common,
      operationId: 'adminListAccounts',
      summary: 'Accounts, searched by name or email, plan and status, by name or by usage',
      description: 'A `read` or `write` operator token.',
      parameters: [
        {
          name: 'q',
          in: 'query',
          required: false,
          description: 'Part of the name or email, any letter case.',
          schema: Type.String({ minLength: 1, maxLength: 200 }),
        },
        { name: 'plan', in: 'query', required: false, description: 'One plan.', schema: stringEnum(PLAN_IDS) },
        { name: 'status', in: 'query', required: false, description: 'One status.', schema: AccountStatus },
        {
          name: 'sort',
          in: 'query',
          required: false,
          description: '`name` (A to Z), or `usage`: most bandwidth charged this period first.',
          schema: stringEnum(['name', 'usage']),
        },
        ...cursorPageParameters('Accounts'),
      ],
      responses: {
        '200': { description: 'A page of accounts.', content: jsonContent(ref('AdminAccountList', AdminAccountList)) },
        '400': errorResponse('A query parameter is malformed; `error` names it.', 'plan must be one of …'),
        ...adminResponses,
      },
    },
    post: openAccountOperation,
  },
  '/accounts/{accountId}': {
    get: {
      ...common,
      operationId: 'adminGetAccount',
      summary: 'One account: status, plan, balances, add-ons, pending downloads and every key with its metadata',
      description: 'Balances as the holder’s `GET /me` shows them.',
      parameters: [accountIdParameter],
      responses: {
        '200': { description: 'The account.', content: jsonContent(ref('AdminAccount', AdminAccount)) },
        '404': accountNotFound,
        ...adminResponses,
      },
    },
  },
  '/accounts/{accountId}/statement': {
    get: {
      ...common,
      operationId: 'adminGetStatement',
      summary: 'The account’s statement, as its holder’s `GET /me/statement` answers it (JSON or CSV)',
      description: 'The lines the auditors’ replay prints, with running balances.',
      parameters: [accountIdParameter, ...statementParameters],
      responses: {
        '200': {
          description: 'A page of the statement.',
          content: { ...jsonContent(declaredElsewhere('Statement')), 'text/csv': { schema: Type.String() } },
        },
        '400': errorResponse('A query parameter is malformed, or `to` is not after `from`.', 'to must be after from'),
        '404': accountNotFound,
        ...adminResponses,
      },
    },
  },
  '/accounts/{accountId}/jobs': {
    get: {
      ...common,
      operationId: 'adminListJobs',
      summary: 'The account’s download jobs, newest first',
      description: 'As the read model holds them.',
      parameters: [
        accountIdParameter,
        {
          name: 'status',
          in: 'query',
          required: false,
          description: 'Only jobs in this status.',
          schema: stringEnum(['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED', 'FAILED']),
        },
        ...cursorPageParameters('Jobs'),
      ],
      responses: {
        '200': { description: 'A page of jobs.', content: jsonContent(ref('AdminJobList', AdminJobList)) },
        '400': errorResponse('A query parameter is malformed; `error` names it.', 'cursor is malformed'),
        '404': accountNotFound,
        ...adminResponses,
      },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends AdminAccountPaths {}
  interface DocumentedSchemas extends AdminAccountSchemas {}
}
type AdminAccountPaths = typeof adminAccountPaths;
type AdminAccountSchemas = typeof adminAccountSchemas;

export const adminAccountOpenApi: OpenApiPart = {
  tags: [
    {
      name: 'Admin',
      description:
        'The operators’ API under `/admin/v1`, behind operator tokens (`npm run admin -- issue-operator-token`), never an account’s key. Every write names its token in the events it appends.',
    },
  ],
  paths: adminAccountPaths,
  schemas: adminAccountSchemas,
};
