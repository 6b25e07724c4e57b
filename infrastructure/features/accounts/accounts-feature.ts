import { AccountAdministration } from '../../../application/accounts/account-administration.js';
import { Authenticate } from '../../../application/accounts/authenticate.js';
import { ChargeVisibility } from '../../../application/accounts/charge-visibility.js';
import { GetAccount } from '../../../application/accounts/get-account.js';
import { ListApiKeys } from '../../../application/accounts/list-api-keys.js';
import { ReadAccountStatement } from '../../../application/audit/account-statement.js';
import { ReplayAccountLedger } from '../../../application/audit/replay-account-ledger.js';
import { CommandHandler } from '../../../application/command-handler.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import { ACCOUNT_STATE_VERSION } from '../../../domain/account/state-version.js';
import { API_KEY_REVOCATIONS_CHANNEL, accountsProjection } from '../../../projections/accounts-projection.js';
import type { FeatureContext, FeatureModule } from '../../composition/feature-module.js';
import { token } from '../../composition/token.js';
import { TOKENS } from '../../composition/tokens.js';
import { accountRoutes } from './account-routes.js';
import { statementRoutes } from './statement-routes.js';
import { PostgresAccountReadModel } from '../../postgres/postgres-account-read-model.js';
import { PostgresAccountReadProgress } from '../../postgres/postgres-account-read-progress.js';
import { PostgresKeyUsage } from '../../postgres/postgres-key-usage.js';
import { KeyRevocationNotices } from '../../security/key-revocation-notices.js';
import { RevocableKeyCache } from '../../security/revocable-key-cache.js';
import { PostgresSnapshotStore } from '../../snapshots/postgres-snapshot-store.js';
import type { ChannelSubscription } from '../../database/open-storage.js';
import { ACCOUNT_ERASURE, ACCOUNT_TABLES } from './account-tables.js';
import { accountOpenApi } from './account-openapi.js';
import { apiKeyOpenApi } from './api-key-openapi.js';
import { apiKeyRoutes } from './api-key-routes.js';

const keyCache = token<RevocableKeyCache>('RevocableKeyCache');
const keyUsage = token<PostgresKeyUsage>('KeyUsage');
const keyRevocations = token<ChannelSubscription>('KeyRevocationListener');

/** Accounts, their keys, plans and ledgers: /me, authentication, the admin and audit commands. */
export const accountsFeature = {
  name: 'accounts',
  openApi: [accountOpenApi, apiKeyOpenApi],
  register: registerAccounts,
  projections: [accountsProjection],
  readModelSchema: ACCOUNT_TABLES,
  erasureStatements: ACCOUNT_ERASURE,
  api: ({ container, validation }) => {
    // Revocations reach every API process through LISTEN: a connection of its own on a server, PGlite's own listeners embedded.
    // Listened for even with no key cache: a revoked key's open event streams end at once.
    const revocations = container.resolve(keyRevocations);
    return {
      apiRouters: [
        accountRoutes({ getAccount: container.resolve(GetAccount), validation }),
        statementRoutes({ statement: container.resolve(ReadAccountStatement), validation }),
        apiKeyRoutes({
          listApiKeys: container.resolve(ListApiKeys),
          administration: container.resolve(AccountAdministration),
          keyLookups: container.resolve(keyCache),
          secrets: container.resolve(TOKENS.apiKeySecrets),
          validation,
        }),
      ],
      start: async () => revocations.start(),
      stop: async () => revocations.close(),
    };
  },
} satisfies FeatureModule;

function registerAccounts(context: FeatureContext): void {
  registerAccountCommands(context);
  registerAccountReads(context);
  registerApiKeys(context);
}

/** The account streams' command handler, snapshotted when configured, and the administration built on it. */
function registerAccountCommands({ container: c, config, logger }: FeatureContext): void {
  const storage = c.resolve(TOKENS.storage);
  const { snapshotAfterEvents } = config.accounts;
  c.singleton(
    TOKENS.accountCommands,
    () =>
      new CommandHandler(storage.eventStore, accountDecider, ACCOUNT_CATEGORY, c.resolve(TOKENS.ids), {
        // Account streams never end: a busy account adds about 150,000 events a month.
        snapshots:
          snapshotAfterEvents === 0
            ? undefined
            : {
                store: new PostgresSnapshotStore(storage.database),
                version: ACCOUNT_STATE_VERSION,
                afterEvents: snapshotAfterEvents,
                onError: (error, stream) =>
                  logger.warn(
                    { err: error, stream },
                    'Account snapshot could not be read or stored; folding from the first event',
                  ),
              },
      }),
  );
  c.singleton(
    AccountAdministration,
    () =>
      new AccountAdministration({
        accounts: c.resolve(TOKENS.accountCommands),
        plans: c.resolve(TOKENS.planCatalog),
        secrets: c.resolve(TOKENS.apiKeySecrets),
        ids: c.resolve(TOKENS.ids),
        clock: c.resolve(TOKENS.clock),
      }),
  );
}

/** The accounts' read model, how far it has read, and what answers from it: /me, charges' visibility, ledgers. */
function registerAccountReads({ container: c, config, logger }: FeatureContext): void {
  const storage = c.resolve(TOKENS.storage);
  c.value(TOKENS.accountReadModel, new PostgresAccountReadModel(storage.database, storage.reads));
  c.value(
    TOKENS.accountReadProgress,
    new PostgresAccountReadProgress(storage.reads, storage.eventStore, config.accounts.readYourWritesWaitMs),
  );
  c.singleton(ChargeVisibility, () => new ChargeVisibility(c.resolve(TOKENS.accountReadProgress)));
  c.singleton(
    GetAccount,
    () => new GetAccount(c.resolve(TOKENS.accountReadModel), storage.eventStore, c.resolve(TOKENS.clock)),
  );
  c.singleton(
    ReplayAccountLedger,
    () => new ReplayAccountLedger(storage.eventStore, c.resolve(TOKENS.accountReadModel), c.resolve(TOKENS.clock)),
  );
  c.singleton(ReadAccountStatement, () => new ReadAccountStatement(c.resolve(ReplayAccountLedger)));
  c.singleton(keyUsage, () => new PostgresKeyUsage(storage.database, logger));
  c.singleton(ListApiKeys, () => new ListApiKeys(storage.eventStore, c.resolve(keyUsage)));
}

/** Authentication by API key, through a cache that a revocation empties of the key. */
function registerApiKeys({ container: c, config }: FeatureContext): void {
  const storage = c.resolve(TOKENS.storage);
  // Keys are cached only while the api role listens for revocations; until then every request looks its key up.
  c.singleton(
    keyCache,
    () =>
      new RevocableKeyCache(c.resolve(TOKENS.accountReadModel), {
        ttlMs: config.security.apiKeyCacheTtlSeconds * 1000,
        maxEntries: 10_000,
      }),
  );
  c.singleton(KeyRevocationNotices, () => new KeyRevocationNotices());
  c.singleton(keyRevocations, () => {
    const cache = c.resolve(keyCache);
    const notices = c.resolve(KeyRevocationNotices);
    notices.subscribe((keyId) => cache.evict(keyId));
    return storage.listen(API_KEY_REVOCATIONS_CHANNEL, {
      onNotification: (keyId) => notices.announce(keyId),
      onListening: () => {
        // The cache forgets all it held; holders of anything else re-check their keys (a notice may have been lost).
        cache.trust();
        notices.resumed();
      },
      onLost: () => cache.distrust(),
    });
  });
  c.singleton(
    Authenticate,
    () =>
      new Authenticate(
        c.resolve(keyCache),
        c.resolve(TOKENS.apiKeySecrets),
        c.resolve(TOKENS.accountReadModel),
        c.resolve(keyUsage),
      ),
  );
}
