import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ReplayAccountLedger, type AuditReport, type RunningBalances } from '../../application/audit/replay-account-ledger.js';
import { loadConfig } from '../config/config.js';
import { createContainer } from '../container.js';
import { createLogger } from '../observability/create-logger.js';

const USAGE = 'Usage: npm run --silent audit -- <accountId> [--json]\n' +
  'Replays the account stream from the event store, prints its billing ledger and the balances it arrives at,\n' +
  'and exits 1 when they differ from what the service reports (exit 2: no such account or bad usage).';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ args: process.argv.slice(2), options: { json: { type: 'boolean' }, help: { type: 'boolean' } }, allowPositionals: true });
  if (values.help || positionals.length !== 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const { container, close } = await createContainer(loadConfig(), createLogger(process.env.LOG_LEVEL ?? 'warn'));
  try {
    const report = await container.resolve(ReplayAccountLedger).execute(positionals[0]);
    if (report === null) {
      process.stderr.write(`No account stream for ${positionals[0]}\n`);
      return 2;
    }
    process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    return report.differences.length === 0 ? 0 : 1;
  } finally {
    await close();
  }
}

function formatReport(report: AuditReport): string {
  const lines = [`Billing ledger of account ${report.accountId} (${report.events} events)`, ''];
  for (const entry of report.entries) {
    const balances = formatBalances(entry.balances);
    switch (entry.kind) {
      case 'charge':
        lines.push(`${entry.at}  charge  job ${entry.jobId}  ${entry.fileSizeBytes} bytes -> ${entry.bandwidthMb} MB, ${entry.downloads} download  | ${balances}`);
        break;
      case 'period':
        lines.push(`${entry.at}  period  plan ${entry.planId}  ${entry.periodStart} .. ${entry.periodEnd ?? 'no renewal'} (usage reset)  | ${balances}`);
        break;
      case 'grant':
        lines.push(`${entry.at}  grant   +${entry.units} ${entry.feature}  | ${balances}`);
        break;
      case 'lookup-charge':
        lines.push(`${entry.at}  charge  ${entry.feature} ${entry.units} unit${entry.units === 1 ? '' : 's'}  ${entry.lookupId}  ${entry.subject}  | ${balances}`);
        break;
    }
  }
  lines.push('', 'Balances now (replay):');
  for (const [feature, balance] of Object.entries(report.replayed)) {
    lines.push(`  ${feature}: granted ${balance.granted}, used ${balance.used}, remaining ${balance.remaining}${balance.unlimited ? ' (unlimited)' : ''}, resets ${balance.resetsAt === null ? 'never' : new Date(balance.resetsAt).toISOString()}`);
  }
  lines.push('', report.differences.length === 0 ? 'OK: the service reports the same balances.' : `MISMATCH with the service:\n  ${report.differences.join('\n  ')}`);
  return `${lines.join('\n')}\n`;
}

function formatBalances(balances: RunningBalances): string {
  return Object.entries(balances).map(([feature, b]) => `${feature} used ${b.used} left ${b.remaining}`).join(', ');
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
