import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ReplayAccountLedger, type AuditReport, type RunningBalances } from '../../application/audit/replay-account-ledger.js';
import { ReadWebhookDeliveryHistory, type WebhookDeliveryHistory } from '../../application/audit/webhook-delivery-history.js';
import type { EventStore } from '../../application/ports/event-store.js';
import { loadConfig } from '../config/config.js';
import { TOKENS, createContainer } from '../container.js';
import { createLogger } from '../observability/create-logger.js';

const USAGE = 'Usage: npm run --silent audit -- <accountId> [--json]\n' +
  'Replays the account stream from the event store, prints its billing ledger and the balances it arrives at,\n' +
  'and exits 1 when they differ from what the service reports (exit 2: no such account or bad usage).\n' +
  '       npm run --silent audit -- --job <jobId> [--json]\n' +
  "Prints the job's webhook delivery history from its stream: every attempt and its outcome (exit 2: no such job).";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ args: process.argv.slice(2), options: { json: { type: 'boolean' }, help: { type: 'boolean' }, job: { type: 'string' } }, allowPositionals: true });
  if (values.job !== undefined && !values.help && positionals.length === 0) return printDeliveryHistory(values.job, values.json === true);
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

async function printDeliveryHistory(jobId: string, json: boolean): Promise<number> {
  const { container, close } = await createContainer(loadConfig(), createLogger(process.env.LOG_LEVEL ?? 'warn'));
  try {
    const history = await new ReadWebhookDeliveryHistory(container.resolve<EventStore>(TOKENS.eventStore)).execute(jobId);
    if (history === null) {
      process.stderr.write(`No job stream for ${jobId}\n`);
      return 2;
    }
    process.stdout.write(json ? `${JSON.stringify(history, null, 2)}\n` : formatHistory(history));
    return 0;
  } finally {
    await close();
  }
}

function formatHistory(history: WebhookDeliveryHistory): string {
  const lines = [`Webhook delivery of job ${history.jobId} (account ${history.accountId})`];
  if (history.webhookUrl === null) return `${lines[0]}\n  no webhookUrl: nothing is sent\n`;
  lines.push(`  to ${history.webhookUrl}; job ${history.finished === null ? 'not finished yet' : `${history.finished.status} at ${history.finished.at}`}`);
  for (const entry of history.attempts) {
    const answer = entry.outcome === 'in_flight' ? 'no outcome recorded' : entry.statusCode !== null ? `HTTP ${entry.statusCode}` : `${entry.errorClass}${entry.detail === null ? '' : ` (${entry.detail})`}`;
    const took = entry.durationMs === null ? '' : ` in ${entry.durationMs} ms`;
    const next = entry.nextDelayMs === null ? '' : `; next attempt after ${entry.nextDelayMs} ms`;
    lines.push(`  ${entry.startedAt}  attempt ${entry.attempt}  worker ${entry.workerId}  -> ${entry.outcome}: ${answer}${took}${next}`);
  }
  const ends: Record<WebhookDeliveryHistory['result'], string> = {
    acknowledged: `acknowledged at ${history.endedAt}`,
    stopped: `stopped by 410 Gone at ${history.endedAt}`,
    gave_up: `gave up after ${history.attempts.length} attempts at ${history.endedAt}`,
    pending: 'pending: further attempts may follow',
    none: 'no webhook',
  };
  lines.push(`  ${ends[history.result]}`);
  return `${lines.join('\n')}\n`;
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
