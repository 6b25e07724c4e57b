import { ExportAccount } from '../../../application/accounts/export-account.js';
import { GetAccount } from '../../../application/accounts/get-account.js';
import { ListApiKeys } from '../../../application/accounts/list-api-keys.js';
import { ReplayAccountLedger } from '../../../application/audit/replay-account-ledger.js';
import { ReadWebhookDeliveryHistory } from '../../../application/audit/webhook-delivery-history.js';
import { ListWebhookAttempts } from '../../../application/downloads/list-webhook-attempts.js';
import type { FeatureModule } from '../../composition/feature-module.js';
import { TOKENS } from '../../composition/tokens.js';
import { downloadStatusBody } from '../../http/routes/download-status-body.js';
import { accountExportOpenApi } from './account-export-openapi.js';
import { accountExportRoutes } from './account-export-routes.js';

/** An account holder's copy of everything held about the account: GET /me/export. */
export const accountExportFeature = {
  name: 'account export',
  // The profile, ledger and statement schemas are the accounts feature's; the jobs' links the downloads feature's.
  requires: ['accounts', 'downloads'],
  openApi: [accountExportOpenApi],
  api: ({ container: c, validation }) => {
    const links = c.resolve(TOKENS.downloadLinks);
    const clock = c.resolve(TOKENS.clock);
    const exportAccount = new ExportAccount({
      keys: c.resolve(ListApiKeys),
      getAccount: c.resolve(GetAccount),
      ledger: c.resolve(ReplayAccountLedger),
      jobs: c.resolve(TOKENS.downloadJobReadModel),
      webhookAttempts: new ListWebhookAttempts(new ReadWebhookDeliveryHistory(c.resolve(TOKENS.eventStore))),
      now: () => clock.now(),
    });
    const statusBody = (view: Parameters<typeof downloadStatusBody>[0]) => downloadStatusBody(view, links, clock.now());
    return { apiRouters: [accountExportRoutes({ exportAccount, statusBody, validation })] };
  },
} satisfies FeatureModule;
