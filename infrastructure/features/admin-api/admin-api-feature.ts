import { GetAccount } from '../../../application/accounts/get-account.js';
import { ListApiKeys } from '../../../application/accounts/list-api-keys.js';
import { EraseAccount } from '../../../application/accounts/erase-account.js';
import { AccountAdministration } from '../../../application/accounts/account-administration.js';
import { ReadAccountStatement } from '../../../application/audit/account-statement.js';
import { ChargeVisibility } from '../../../application/accounts/charge-visibility.js';
import { CommandHandler } from '../../../application/command-handler.js';
import { ListDownloadJobs } from '../../../application/downloads/list-download-jobs.js';
import { IdempotentAdminWrites } from '../../../application/operators/idempotent-admin-writes.js';
import { OperatorTokens } from '../../../application/operators/operator-tokens.js';
import { ReadOperatorAccounts } from '../../../application/operators/read-operator-accounts.js';
import { ReplayDeadLetter } from '../../../application/operators/replay-dead-letter.js';
import { OPERATOR_TOKEN_CATEGORY, operatorTokenDecider } from '../../../domain/operator-token/operator-token.js';
import { failingWebhookDeliveriesProjection } from '../../../projections/failing-webhook-deliveries-projection.js';
import { operatorTokensProjection } from '../../../projections/operator-tokens-projection.js';
import type { ApiContext, FeatureContext, FeatureModule } from '../../composition/feature-module.js';
import { TOKENS } from '../../composition/tokens.js';
import { StallMonitor } from '../../observability/stall-monitor.js';
import { CHECKPOINT_TABLE } from '../../processing/checkpoint-schema.js';
import { OperatorTokenCrypto } from '../../security/operator-token-crypto.js';
import { adminAccountOpenApi } from './admin-account-openapi.js';
import { adminAccountRoutes } from './admin-account-routes.js';
import { adminAccountWriteOpenApi } from './admin-account-write-openapi.js';
import { adminAccountWriteRoutes } from './admin-account-write-routes.js';
import { adminSystemOpenApi } from './admin-system-openapi.js';
import { adminSystemRoutes } from './admin-system-routes.js';
import { ADMIN_ERASURE, ADMIN_TABLES } from './admin-tables.js';
import { operatorAuthentication, requireOperator } from './operator-authentication.js';
import { PostgresAdminRequestLog } from './postgres-admin-request-log.js';
import { PostgresDeadLetters } from './postgres-dead-letters.js';
import { PostgresFailingWebhooks } from './postgres-failing-webhooks.js';
import { PostgresOperatorTokenReadModel } from './postgres-operator-token-read-model.js';
import { PostgresProcessHeartbeats, heartbeatLoop } from './process-heartbeats.js';

/**
 * The operators' API under /admin/v1, behind operator tokens: accounts (search, open, plan, add-ons, grants, keys,
 * suspension, closure, statement, jobs) and the running service (queue, lag, processes, dead letters, failing
 * webhooks). The admin CLI issues the tokens and calls the same use cases.
 */
export const adminApiFeature = {
  name: 'admin API',
  requires: ['accounts', 'downloads'],
  register: registerAdmin,
  projections: [operatorTokensProjection, failingWebhookDeliveriesProjection],
  readModelSchema: ADMIN_TABLES,
  erasureStatements: ADMIN_ERASURE,
  openApi: [adminAccountOpenApi, adminAccountWriteOpenApi, adminSystemOpenApi],
  api: (context) => {
    const beats = heartbeatLoop(context.container.resolve(TOKENS.database), 'api', context.logger);
    return {
      admin: {
        routers: adminRouters(context),
        authenticate: operatorAuthentication(context.container.resolve(OperatorTokens)),
        requireOperator,
      },
      start: async () => beats.start(),
      stop: async () => beats.stop(),
    };
  },
  workerLoops: ({ container, logger }) => [heartbeatLoop(container.resolve(TOKENS.database), 'worker', logger)],
  projectorLoops: ({ container, logger }) => [heartbeatLoop(container.resolve(TOKENS.database), 'projector', logger)],
  sweeperLoops: ({ container, logger }) => [heartbeatLoop(container.resolve(TOKENS.database), 'sweeper', logger)],
} satisfies FeatureModule;

function registerAdmin({ container: c }: FeatureContext): void {
  const { eventStore, database } = c.resolve(TOKENS.storage);
  c.singleton(
    OperatorTokens,
    () =>
      new OperatorTokens(
        new CommandHandler(eventStore, operatorTokenDecider, OPERATOR_TOKEN_CATEGORY, c.resolve(TOKENS.ids)),
        new PostgresOperatorTokenReadModel(database),
        new OperatorTokenCrypto(),
        c.resolve(TOKENS.ids),
        c.resolve(TOKENS.clock),
      ),
  );
  c.singleton(IdempotentAdminWrites, () => new IdempotentAdminWrites(new PostgresAdminRequestLog(database)));
  c.singleton(
    ReadOperatorAccounts,
    () => new ReadOperatorAccounts(c.resolve(TOKENS.accountReadModel), c.resolve(GetAccount), c.resolve(ListApiKeys)),
  );
}

function adminRouters({ container: c, config, validation }: ApiContext) {
  const database = c.resolve(TOKENS.database);
  const writes = c.resolve(IdempotentAdminWrites);
  const accounts = c.resolve(ReadOperatorAccounts);
  const queue = c.resolve(TOKENS.workQueue);
  const measuresLag = config.storage.eventStoreUrl === null;
  return [
    adminAccountRoutes({
      accounts,
      statement: c.resolve(ReadAccountStatement),
      listDownloadJobs: new ListDownloadJobs(c.resolve(TOKENS.downloadJobReadModel), c.resolve(ChargeVisibility)),
      validation,
    }),
    adminAccountWriteRoutes({
      administration: c.resolve(AccountAdministration),
      writes,
      accounts,
      readModel: c.resolve(TOKENS.accountReadModel),
      secrets: c.resolve(TOKENS.apiKeySecrets),
      validation,
      eraseWith: (admin) => new EraseAccount(admin, c.resolve(TOKENS.personalDataErasure), c.resolve(TOKENS.fileStore)),
    }),
    adminSystemRoutes({
      queue,
      processorLag: async () => {
        if (!measuresLag) return null;
        const names = (await database(CHECKPOINT_TABLE).select<{ name: string }[]>('name')).map((row) => row.name);
        return new StallMonitor(database, names).processorLagSeconds();
      },
      heartbeats: new PostgresProcessHeartbeats(database),
      deadLetters: new PostgresDeadLetters(database),
      failingWebhooks: new PostgresFailingWebhooks(database),
      replay: new ReplayDeadLetter(new PostgresDeadLetters(database), queue, c.resolve(TOKENS.clock)),
      writes,
      validation,
    }),
  ];
}
