import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { AuditReport } from '../../application/audit/replay-account-ledger.js';
import type { AccountBillingRecord } from './billing-invariants.js';
import type { SoakAccount } from './soak-accounts.js';
import type { SoakHttp } from './soak-http.js';

const run = promisify(execFile);
const AUDIT = path.join(__dirname, '..', '..', 'infrastructure', 'cli', 'audit.js');

/** Per account: its read-model row, the audit CLI's replay (a process of its own, as an auditor runs it) and `GET /me`. */
export async function readBillingRecords(
  accounts: SoakAccount[],
  http: SoakHttp,
  env: Record<string, string>,
): Promise<AccountBillingRecord[]> {
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  try {
    const records: AccountBillingRecord[] = [];
    for (const account of accounts) {
      const { rows } = await db.query<{ state: AccountBillingRecord['readModel'] }>(
        'SELECT state FROM accounts WHERE account_id = $1',
        [account.accountId],
      );
      const audit = await runAudit(account.accountId, env);
      const me = await http.send('GET', '/me', { key: account.apiKey });
      records.push({
        accountId: account.accountId,
        readModel: rows[0]?.state,
        audit,
        me: { status: me.status, body: me.status === null ? null : me.body },
        statement: await readStatement(account, http),
      });
    }
    return records;
  } finally {
    await db.end();
  }
}

/** Every page of the account's own statement, as its holder reads it. */
async function readStatement(account: SoakAccount, http: SoakHttp): Promise<AccountBillingRecord['statement']> {
  const entries: unknown[] = [];
  let cursor: string | null = null;
  for (;;) {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = await http.send('GET', `/me/statement?limit=1000${query}`, { key: account.apiKey });
    if (page.status !== 200) return null;
    entries.push(...page.body.entries);
    cursor = page.body.nextCursor;
    if (cursor === null) return { entries, balances: page.body.balances };
  }
}

async function runAudit(accountId: string, env: Record<string, string>): Promise<AccountBillingRecord['audit']> {
  const result = await run(process.execPath, [AUDIT, accountId, '--json'], {
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (done) => ({ exitCode: 0, stdout: done.stdout }),
    (error: { code?: number; stdout?: string }) => ({ exitCode: error.code ?? -1, stdout: error.stdout ?? '' }),
  );
  let report: AuditReport | null = null;
  try {
    report = JSON.parse(result.stdout) as AuditReport;
  } catch {
    // Judged by checkAccountBilling: an audit without a report failed.
  }
  return { exitCode: result.exitCode, report };
}
