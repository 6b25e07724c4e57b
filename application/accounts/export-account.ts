import type { LedgerEntry, ReplayAccountLedger } from '../audit/replay-account-ledger.js';
import type { ListWebhookAttempts, WebhookAttemptView } from '../downloads/list-webhook-attempts.js';
import type { DownloadJobReadModel, DownloadJobView } from '../ports/read-models.js';
import type { AccountSummary, GetAccount } from './get-account.js';
import type { ApiKeyMetadata, ListApiKeys } from './list-api-keys.js';

export interface AccountExport<Job> {
  accountId: string;
  exportedAt: string;
  profile: AccountSummary;
  keys: ApiKeyMetadata[];
  jobs: Job[];
  /** Per download job with a webhook: where it went and every attempt, as GET /download/{jobId}/webhook-attempts shows. */
  webhookDeliveries: Array<{ jobId: string; webhookUrl: string; attempts: WebhookAttemptView[] }>;
  statement: LedgerEntry[];
}

export interface ExportAccountDependencies {
  keys: ListApiKeys;
  getAccount: GetAccount;
  ledger: ReplayAccountLedger;
  jobs: DownloadJobReadModel;
  webhookAttempts: ListWebhookAttempts;
  now: () => Date;
}

const JOBS_PER_READ = 200;

/** Everything the service holds about an account, for its holder: profile, keys, jobs, webhook history, statement. */
export class ExportAccount {
  constructor(private readonly deps: ExportAccountDependencies) {}

  async execute<Job>(accountId: string, render: (view: DownloadJobView) => Job): Promise<AccountExport<Job> | null> {
    const profile = await this.deps.getAccount.execute(accountId);
    const report = await this.deps.ledger.execute(accountId);
    if (profile === null || report === null) return null;
    const views = await this.allJobs(accountId);
    const webhookDeliveries = [];
    for (const view of views.filter((candidate) => candidate.webhookUrl !== null)) {
      const attempts = (await this.deps.webhookAttempts.execute(accountId, view.jobId)) ?? [];
      webhookDeliveries.push({ jobId: view.jobId, webhookUrl: view.webhookUrl as string, attempts });
    }
    return {
      accountId,
      exportedAt: this.deps.now().toISOString(),
      profile,
      keys: await this.deps.keys.execute(accountId),
      jobs: views.map(render),
      webhookDeliveries,
      statement: report.entries,
    };
  }

  private async allJobs(accountId: string): Promise<DownloadJobView[]> {
    const all: DownloadJobView[] = [];
    for (;;) {
      const last = all.at(-1);
      const page = await this.deps.jobs.list({
        accountId,
        limit: JOBS_PER_READ,
        after: last === undefined ? undefined : { createdAt: last.createdAt, jobId: last.jobId },
      });
      all.push(...page);
      if (page.length < JOBS_PER_READ) return all;
    }
  }
}
