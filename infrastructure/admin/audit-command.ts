import { parseArgs } from 'node:util';
import {
  ReplayAccountLedger,
  type AuditReport,
  type RunningBalances,
} from '../../application/audit/replay-account-ledger.js';
import {
  ReadWebhookDeliveryHistory,
  type WebhookDeliveryHistory,
} from '../../application/audit/webhook-delivery-history.js';
import type { Container } from '../composition/container.js';
import { TOKENS } from '../composition/tokens.js';
import type { CliOutput } from './cli-command.js';

const USAGE =
  'Usage: npm run --silent audit -- <accountId> [--json]\n' +
  'Replays the account stream from the event store, prints its billing ledger and the balances it arrives at,\n' +
  'and exits 1 when they differ from what the service reports (exit 2: no such account or bad usage).\n' +
  '       npm run --silent audit -- --job <jobId> [--json]\n' +
  "Prints the job's webhook delivery history from its stream: every attempt and its outcome (exit 2: no such job).";

/**
 * `npm run audit -- <accountId> [--json]` against a composed service: exit 0 when the balances agree, 1 when not, 2 for
 * no such account or bad usage; `--job <jobId>` prints a job's webhook delivery history instead.
 */
export async function auditCommand(args: string[], container: Container, io: CliOutput): Promise<number> {
  let parsed: { values: { json?: boolean; help?: boolean; job?: string }; positionals: string[] };
  try {
    parsed = parseArgs({
      args,
      options: { json: { type: 'boolean' }, help: { type: 'boolean' }, job: { type: 'string' } },
      allowPositionals: true,
    });
  } catch {
    parsed = { values: { help: true }, positionals: [] };
  }
  const { values, positionals } = parsed;
  if (values.job !== undefined && !values.help && positionals.length === 0)
    return printDeliveryHistory(values.job, values.json === true, container, io);
  if (values.help || positionals.length !== 1) {
    io.err(`${USAGE}\n`);
    return 2;
  }
  const report = await container.resolve(ReplayAccountLedger).execute(positionals[0]);
  if (report === null) {
    io.err(`No account stream for ${positionals[0]}\n`);
    return 2;
  }
  io.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.differences.length === 0 ? 0 : 1;
}

async function printDeliveryHistory(
  jobId: string,
  json: boolean,
  container: Container,
  io: CliOutput,
): Promise<number> {
  const history = await new ReadWebhookDeliveryHistory(container.resolve(TOKENS.eventStore)).execute(jobId);
  if (history === null) {
    io.err(`No job stream for ${jobId}\n`);
    return 2;
  }
  io.out(json ? `${JSON.stringify(history, null, 2)}\n` : formatHistory(history));
  return 0;
}

function formatHistory(history: WebhookDeliveryHistory): string {
  const lines = [`Webhook delivery of job ${history.jobId} (account ${history.accountId})`];
  if (history.webhookUrl === null) return `${lines[0]}\n  no webhookUrl: nothing is sent\n`;
  lines.push(
    `  to ${history.webhookUrl}; job ${history.finished === null ? 'not finished yet' : `${history.finished.status} at ${history.finished.at}`}`,
  );
  for (const entry of history.attempts) {
    const answer =
      entry.outcome === 'in_flight'
        ? 'no outcome recorded'
        : entry.statusCode !== null
          ? `HTTP ${entry.statusCode}`
          : `${entry.errorClass}${entry.detail === null ? '' : ` (${entry.detail})`}`;
    const took = entry.durationMs === null ? '' : ` in ${entry.durationMs} ms`;
    const next = entry.nextDelayMs === null ? '' : `; next attempt after ${entry.nextDelayMs} ms`;
    lines.push(
      `  ${entry.startedAt}  attempt ${entry.attempt}  worker ${entry.workerId}  -> ${entry.outcome}: ${answer}${took}${next}`,
    );
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
        lines.push(
          `${entry.at}  charge  job ${entry.jobId}  ${entry.fileSizeBytes} bytes -> ${entry.bandwidthMb} MB, ${entry.downloads} download  | ${balances}`,
        );
        break;
      case 'period':
        lines.push(
          `${entry.at}  period  plan ${entry.planId}  ${entry.periodStart} .. ${entry.periodEnd ?? 'no renewal'} (usage reset)  | ${balances}`,
        );
        break;
      case 'grant':
        lines.push(`${entry.at}  grant   +${entry.units} ${entry.feature}  | ${balances}`);
        break;
      case 'release':
        lines.push(`${entry.at}  release ${entry.feature} ${entry.reference} (held, not charged)  | ${balances}`);
        break;
      case 'lookup-charge':
        lines.push(
          `${entry.at}  charge  ${entry.feature} ${entry.units} unit${entry.units === 1 ? '' : 's'}  ${entry.lookupId}  ${entry.subject}  | ${balances}`,
        );
        break;
    }
  }
  lines.push('', 'Balances now (replay):');
  for (const [feature, balance] of Object.entries(report.replayed)) {
    lines.push(
      `  ${feature}: granted ${balance.granted}, used ${balance.used}, remaining ${balance.remaining}${balance.unlimited ? ' (unlimited)' : ''}, resets ${balance.resetsAt === null ? 'never' : new Date(balance.resetsAt).toISOString()}`,
    );
  }
  lines.push(
    '',
    report.differences.length === 0
      ? 'OK: the service reports the same balances.'
      : `MISMATCH with the service:\n  ${report.differences.join('\n  ')}`,
  );
  return `${lines.join('\n')}\n`;
}

function formatBalances(balances: RunningBalances): string {
  return Object.entries(balances)
    .map(([feature, b]) => `${feature} used ${b.used} left ${b.remaining}`)
    .join(', ');
}
