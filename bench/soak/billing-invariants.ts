import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { AuditReport } from '../../application/audit/replay-account-ledger.js';
import { type JobKind, type JobLedger, SUCCESS } from './job-ledger.js';
import type { SoakAccount } from './soak-accounts.js';
import type { SoakHttp } from './soak-http.js';

const run = promisify(execFile);
const AUDIT = path.join(__dirname, '..', '..', 'infrastructure', 'cli', 'audit.js');

/**
 * Per account: no reservation left open; the auditors' replay (the audit
 * CLI, a process of its own) agrees with the read model and with `GET /me`;
 * every successful job charged once, and no failed or cancelled one.
 */
export async function checkBilling(
  accounts: SoakAccount[],
  ledger: JobLedger,
  http: SoakHttp,
  env: Record<string, string>,
): Promise<string[]> {
  const broken: string[] = [];
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  try {
    for (const account of accounts) {
      const { rows } = await db.query<{ state: { pendingJobs?: string[]; pendingLookups?: unknown[] } }>(
        'SELECT state FROM accounts WHERE account_id = $1',
        [account.accountId],
      );
      const state = rows[0]?.state;
      if (state === undefined) broken.push(`account ${account.accountId}: no read-model row`);
      else if ((state.pendingJobs?.length ?? 0) + (state.pendingLookups?.length ?? 0) > 0)
        broken.push(
          `account ${account.accountId}: reservations left open: ${JSON.stringify({ pendingJobs: state.pendingJobs, pendingLookups: state.pendingLookups })}`,
        );
      broken.push(...(await auditAccount(account, ledger, http, env)));
    }
  } finally {
    await db.end();
  }
  return broken;
}

async function auditAccount(
  account: SoakAccount,
  ledger: JobLedger,
  http: SoakHttp,
  env: Record<string, string>,
): Promise<string[]> {
  const broken: string[] = [];
  const where = `account ${account.accountId}`;
  const result = await run(process.execPath, [AUDIT, account.accountId, '--json'], {
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (done) => ({ code: 0, stdout: done.stdout }),
    (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? '' }),
  );
  if (result.code !== 0 && result.code !== 1) return [`${where}: the audit CLI failed (exit ${result.code})`];
  const report = JSON.parse(result.stdout) as AuditReport;
  if (result.code === 1)
    broken.push(`${where}: the audit replay differs from the read model: ${report.differences.join('; ')}`);
  const me = await http.send('GET', '/me', { key: account.apiKey });
  if (me.status !== 200) broken.push(`${where}: GET /me answered ${me.status}`);
  else
    for (const [feature, replayed] of Object.entries(report.replayed)) {
      const served = me.body.balances?.[feature];
      if (served?.used !== replayed?.used)
        broken.push(`${where}: ${feature} used is ${served?.used} on /me, ${replayed?.used} in the replay`);
    }

  const charged = (kind: 'charge' | 'info' | 'client_download' | 'channel_list') =>
    report.entries.flatMap((entry) =>
      entry.kind === 'charge' && kind === 'charge'
        ? [entry.jobId]
        : entry.kind === 'lookup-charge' && entry.feature === kind
          ? [entry.lookupId]
          : [],
    );
  broken.push(...compareCharges(where, 'download', charged('charge'), ledger, account.accountId));
  broken.push(...compareCharges(where, 'info', charged('info'), ledger, account.accountId));
  broken.push(...compareCharges(where, 'client-download', charged('client_download'), ledger, account.accountId));
  const listings = new Set(charged('channel_list')).size;
  const answered = ledger.listings.get(account.accountId) ?? 0;
  const unknown = ledger.unknownOutcomes.filter(
    (entry) => entry.kind === 'list-channel' && entry.accountId === account.accountId,
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
  const unknown = ledger.unknownOutcomes.filter((entry) => entry.kind === kind && entry.accountId === accountId).length;
  if (unnamed > unknown)
    broken.push(
      `${where}: ${unnamed} ${kind} charges for jobs the clients never got an id for (${unknown} submissions unanswered)`,
    );
  for (const job of jobs.values())
    if (job.status === SUCCESS[kind] && !seen.has(job.jobId))
      broken.push(`${where}: ${kind} job ${job.jobId} succeeded but was not charged`);
  return broken;
}
