import { PostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.js';
import type { JobLedger } from './job-ledger.js';
import { checkCounts, submittedJobs } from './subscription-invariants.js';
import type { SubscriptionHistory } from './tracked-subscription.js';

/** Each tracked subscription's stream, read from the event store as an auditor would. */
export async function readSubscriptionHistories(
  databaseUrl: string,
  ledger: JobLedger,
): Promise<SubscriptionHistory[]> {
  const store = new PostgresEventStore({ connectionString: databaseUrl, pollIntervalMs: 60_000 });
  try {
    const histories: SubscriptionHistory[] = [];
    for (const { subscriptionId, accountId } of ledger.subscriptions) {
      const events = await store.readStream(`subscription-${subscriptionId}`);
      histories.push({
        subscriptionId,
        accountId,
        events: events.map((event) => ({
          type: event.type,
          data: event.data as Record<string, unknown>,
          recordedAt: event.createdAt.toISOString(),
        })),
      });
    }
    return histories;
  } finally {
    await store.close();
  }
}

/**
 * What the subscriptions did for the billing and job checks: each job they
 * submitted is tracked from its submission, each check that listed is a
 * listing answered, and one started and never ended may have been charged.
 */
export function trackSubscriptionWork(histories: readonly SubscriptionHistory[], ledger: JobLedger): void {
  for (const history of histories) {
    const tracked = ledger.subscriptions.find((item) => item.subscriptionId === history.subscriptionId);
    const key = tracked?.key ?? '';
    const jobs = submittedJobs(history);
    for (const job of jobs)
      if (!ledger.jobs.some((tracked) => tracked.jobId === job.jobId))
        ledger.add({
          kind: 'download',
          jobId: job.jobId,
          accountId: history.accountId,
          key,
          webhook: null,
          submittedAt: Date.parse(job.submittedAt),
          canary: false,
          expected: 'success',
        });
    const { completed, unended } = checkCounts(history);
    if (tracked !== undefined) Object.assign(tracked, { checks: completed, jobs: jobs.length });
    for (let count = 0; count < completed; count += 1) ledger.listed(history.accountId);
    for (let count = 0; count < unended; count += 1)
      ledger.unknownOutcomes.push({ kind: 'list-channel', accountId: history.accountId, at: Date.now() });
  }
}
