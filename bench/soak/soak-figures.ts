import type { InjectedFault } from './fault-injector.js';
import { excused } from './job-invariants.js';
import { type JobLedger, SUCCESS } from './job-ledger.js';
import type { SoakHttp } from './soak-http.js';

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (value: number | null) => (value === null ? 'n/a' : `${(value / 1000).toFixed(1)} s`);

/** The run in figures: jobs by kind and outcome, refusals, faults by class, recovery times, request latencies. */
export function soakFigures(ledger: JobLedger, faults: InjectedFault[], http: SoakHttp): string[] {
  const lines: string[] = [];
  const outcomes = new Map<string, number>();
  for (const job of ledger.jobs) {
    const key = `${job.kind}${job.webhook === null ? '' : ` (webhook ${job.webhook})`}${job.cancelled ? ' (cancelled)' : ''}: ${job.status ?? 'never polled'}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  lines.push(
    `jobs: ${ledger.jobs.length} (${ledger.jobs.filter((job) => job.canary).length} canaries), channel listings answered: ${[...ledger.listings.values()].reduce((sum, count) => sum + count, 0)}`,
  );
  for (const [key, count] of [...outcomes].sort()) lines.push(`  ${key}: ${count}`);
  if (ledger.batches.length > 0) {
    const byStatus = new Map<string, number>();
    for (const batch of ledger.batches)
      byStatus.set(batch.status ?? 'never polled', (byStatus.get(batch.status ?? 'never polled') ?? 0) + 1);
    const videos = ledger.batches.reduce((sum, batch) => sum + batch.seen.length, 0);
    lines.push(
      `batches: ${ledger.batches.length} (${[...byStatus].map(([status, count]) => `${status} ${count}`).join(', ')}), ${videos} videos, their jobs counted above`,
    );
  }
  if (ledger.subscriptions.length > 0) {
    const sum = (field: 'checks' | 'jobs') => ledger.subscriptions.reduce((total, item) => total + item[field], 0);
    lines.push(
      `subscriptions: ${ledger.subscriptions.length} (deleted by their clients at the end), ${sum('checks')} checks that listed, ${sum('jobs')} jobs, counted above`,
    );
  }
  if (ledger.refusals.size > 0)
    lines.push(`refused: ${[...ledger.refusals].map(([key, count]) => `${key} ×${count}`).join(', ')}`);
  if (ledger.unknownOutcomes.length > 0) lines.push(`submissions never answered: ${ledger.unknownOutcomes.length}`);
  const terminal = ledger.jobs
    .filter((job) => job.terminalAt !== null)
    .map((job) => (job.terminalAt as number) - job.submittedAt);
  lines.push(`submission to terminal: p50 ${ms(percentile(terminal, 50))}, p99 ${ms(percentile(terminal, 99))}`);
  lines.push(
    `requests: ${http.latencies.length}, p50 ${percentile(http.latencies, 50)} ms, p99 ${percentile(http.latencies, 99)} ms, unanswered within the bound: ${http.unanswered.length}`,
  );
  const failedUnderFault = ledger.jobs.filter(
    (job) =>
      job.expected === 'success' && job.status !== null && job.status !== SUCCESS[job.kind] && ledger.isTerminal(job),
  );
  if (failedUnderFault.length > 0)
    lines.push(
      `jobs of working videos that failed: ${failedUnderFault.length} (${failedUnderFault.filter((job) => job.cancelSent).length} cancelled, ${failedUnderFault.filter((job) => !job.cancelSent && excused(job, faults)).length} excused by a fault)`,
    );
  const notInjected = faults.filter((fault) => fault.failure !== null).length;
  lines.push(
    `faults injected: ${faults.length - notInjected}${notInjected > 0 ? `, ${notInjected} could not be` : ''}`,
  );
  const byClass = new Map<string, InjectedFault[]>();
  for (const fault of faults) byClass.set(fault.kind, [...(byClass.get(fault.kind) ?? []), fault]);
  for (const [kind, list] of [...byClass].sort()) {
    const injected = list.filter((fault) => fault.failure === null);
    const recovered = injected.flatMap((fault) => (fault.recoveredAfterMs === null ? [] : [fault.recoveredAfterMs]));
    lines.push(
      `  ${kind}: ${list.length}, recovery p50 ${ms(percentile(recovered, 50))}, p99 ${ms(percentile(recovered, 99))}${recovered.length < injected.length ? `, ${injected.length - recovered.length} not recovered` : ''}`,
    );
  }
  const all = faults.flatMap((fault) => (fault.recoveredAfterMs === null ? [] : [fault.recoveredAfterMs]));
  lines.push(
    `recovery (fault to a later submission's completion): p50 ${ms(percentile(all, 50))}, p99 ${ms(percentile(all, 99))}`,
  );
  return lines;
}
