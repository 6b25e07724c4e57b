import type { AuditReport, LedgerEntry, RunningBalances } from '../../application/audit/replay-account-ledger.js';
import type { FeatureId } from '../../domain/account/plan.js';
import { type JobKind, type JobLedger, SUCCESS } from './job-ledger.js';

/** What the soak read about one account once the run was quiet: the checks below judge it. */
export interface AccountBillingRecord {
  accountId: string;
  /** The accounts read model's state for it; undefined when it has no row. */
  readModel: { pendingJobs?: string[]; pendingLookups?: unknown[] } | undefined;
  /** The audit CLI's exit code and its report; the report is null when its output was not a report. */
  audit: { exitCode: number; report: AuditReport | null };
  /** How `GET /me` answered with the account's key. */
  me: { status: number | null; body: any };
  /** Every page of `GET /me/statement` together (entries in order, the last page's balances); null when a page did not answer 200. */
  statement: { entries: unknown[]; balances: unknown } | null;
}

/**
 * Per account: no reservation left open; the auditors' replay (the audit
 * CLI, a process of its own) agrees with the read model and with `GET /me`;
 * each charge in the replayed ledger moves the running balance by what it
 * charged; every successful job charged once, and no failed or cancelled one.
 */
export function checkAccountBilling(record: AccountBillingRecord, ledger: JobLedger): string[] {
  const where = `account ${record.accountId}`;
  const broken: string[] = [];
  const state = record.readModel;
  if (state === undefined) broken.push(`${where}: no read-model row`);
  else if ((state.pendingJobs?.length ?? 0) + (state.pendingLookups?.length ?? 0) > 0)
    broken.push(
      `${where}: reservations left open: ${JSON.stringify({ pendingJobs: state.pendingJobs, pendingLookups: state.pendingLookups })}`,
    );
  const { exitCode, report } = record.audit;
  if ((exitCode !== 0 && exitCode !== 1) || report === null)
    return [...broken, `${where}: the audit CLI failed (exit ${exitCode})`];
  if (exitCode === 1)
    broken.push(`${where}: the audit replay differs from the read model: ${report.differences.join('; ')}`);
  broken.push(...compareWithMe(where, report, record.me));
  broken.push(...compareStatement(where, report, record));
  broken.push(...unbalancedEntries(where, report.entries));
  broken.push(...compareAllCharges(where, report, ledger, record.accountId));
  return broken;
}

function compareWithMe(where: string, report: AuditReport, me: AccountBillingRecord['me']): string[] {
  if (me.status !== 200) return [`${where}: GET /me answered ${me.status}`];
  const broken: string[] = [];
  for (const [feature, replayed] of Object.entries(report.replayed)) {
    const served = me.body?.balances?.[feature];
    if (served?.used !== replayed?.used)
      broken.push(`${where}: ${feature} used is ${served?.used} on /me, ${replayed?.used} in the replay`);
  }
  return broken;
}

/** The holder's statement is the auditors' ledger, line for line, and ends at the balances `/me` shows. */
function compareStatement(where: string, report: AuditReport, record: AccountBillingRecord): string[] {
  const { statement, me } = record;
  if (statement === null) return [`${where}: GET /me/statement did not answer every page`];
  const broken: string[] = [];
  const differing = firstDifference(statement.entries, report.entries);
  if (differing !== null)
    broken.push(`${where}: the statement differs from the audit CLI's ledger at line ${differing}`);
  if (me.status === 200 && JSON.stringify(statement.balances) !== JSON.stringify(me.body?.balances))
    broken.push(`${where}: the statement's balances are not those GET /me shows`);
  return broken;
}

/** The index of the first line two ledgers disagree on (a missing line included), or null. */
function firstDifference(left: readonly unknown[], right: readonly unknown[]): number | null {
  for (let index = 0; index < Math.max(left.length, right.length); index += 1)
    if (JSON.stringify(left[index]) !== JSON.stringify(right[index])) return index;
  return null;
}

/** What a ledger entry adds to each feature's `used`; null for entries that set a new baseline (a period, a grant). */
function charged(entry: LedgerEntry): Partial<Record<FeatureId, number>> | null {
  if (entry.kind === 'charge') return { download_count: entry.downloads, bandwidth_mb: entry.bandwidthMb };
  if (entry.kind === 'lookup-charge') return { [entry.feature]: entry.units };
  return null;
}

/** Each charge's running balance must be the one before it plus what it charged: a ledger that adds up. */
function unbalancedEntries(where: string, entries: readonly LedgerEntry[]): string[] {
  const broken: string[] = [];
  // An account starts with nothing used; periods and grants carry the balances they set.
  let before: RunningBalances | null = null;
  for (const entry of entries) {
    const amounts = charged(entry);
    if (amounts !== null)
      for (const [feature, amount] of Object.entries(amounts) as Array<[FeatureId, number]>) {
        const after = entry.balances[feature]?.used;
        if (after === undefined) continue;
        const expected = (before?.[feature]?.used ?? 0) + amount;
        if (Math.abs(after - expected) > 1e-6)
          broken.push(
            `${where}: the ledger does not add up at revision ${entry.revision}: ${feature} used ${after} after charging ${amount}, expected ${expected}`,
          );
      }
    before = entry.balances;
  }
  return broken;
}

function compareAllCharges(where: string, report: AuditReport, ledger: JobLedger, accountId: string): string[] {
  const chargedIds = (kind: 'charge' | 'info' | 'client_download' | 'channel_list') =>
    report.entries.flatMap((entry) =>
      entry.kind === 'charge' && kind === 'charge'
        ? [entry.jobId]
        : entry.kind === 'lookup-charge' && entry.feature === kind
          ? [entry.lookupId]
          : [],
    );
  const broken = [
    ...compareCharges(where, 'download', chargedIds('charge'), ledger, accountId),
    ...compareCharges(where, 'info', chargedIds('info'), ledger, accountId),
    ...compareCharges(where, 'client-download', chargedIds('client_download'), ledger, accountId),
  ];
  const listings = new Set(chargedIds('channel_list')).size;
  const answered = ledger.listings.get(accountId) ?? 0;
  const unknown = ledger.unknownOutcomes.filter(
    (entry) => entry.kind === 'list-channel' && entry.accountId === accountId,
  ).length;
  if (listings < answered || listings > answered + unknown)
    broken.push(`${where}: ${listings} channel listings charged for ${answered} answered (${unknown} unanswered)`);
  return broken;
}

function compareCharges(
  where: string,
  kind: JobKind,
  chargedIds: string[],
  ledger: JobLedger,
  accountId: string,
): string[] {
  const broken: string[] = [];
  const jobs = new Map(
    ledger.jobs.filter((job) => job.kind === kind && job.accountId === accountId).map((job) => [job.jobId, job]),
  );
  const seen = new Set<string>();
  let unnamed = 0;
  for (const jobId of chargedIds) {
    if (seen.has(jobId)) broken.push(`${where}: ${kind} job ${jobId} charged twice`);
    seen.add(jobId);
    const job = jobs.get(jobId);
    if (job === undefined) unnamed += 1;
    else if (job.status !== SUCCESS[kind])
      broken.push(
        `${where}: ${kind} job ${jobId} charged but ended ${job.status}${job.cancelled ? ' (cancelled)' : ''}`,
      );
  }
  // An unanswered batch may have made a download job of each of its videos.
  const unknown = ledger.unknownOutcomes
    .filter(
      (entry) =>
        entry.accountId === accountId && (entry.kind === kind || (kind === 'download' && entry.kind === 'batch')),
    )
    .reduce((sum, entry) => sum + (entry.jobs ?? 1), 0);
  if (unnamed > unknown)
    broken.push(
      `${where}: ${unnamed} ${kind} charges for jobs the clients never got an id for (${unknown} submissions unanswered)`,
    );
  for (const job of jobs.values())
    if (job.status === SUCCESS[kind] && !seen.has(job.jobId))
      broken.push(`${where}: ${kind} job ${job.jobId} succeeded but was not charged`);
  return broken;
}
