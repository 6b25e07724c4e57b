import type { Api } from './api.js';
import { byId, el, show } from './dom.js';
import { formatDate } from './format.js';

interface StatementEntry {
  kind: string;
  at: string;
  jobId?: string;
  lookupId?: string;
  bandwidthMb?: number;
  feature?: string;
  units?: number;
  planId?: string;
  balances: Record<string, { used: number; remaining: number | 'unlimited' }>;
}

const SHOWN_DAYS = 30;
const KINDS: Record<string, string> = {
  charge: 'Download charged',
  'lookup-charge': 'Lookup charged',
  release: 'Reservation released',
  grant: 'Units granted',
  period: 'New period',
};

/** The last 30 days of the account's statement, newest first: what `GET /me/statement` gives. */
export class StatementView {
  constructor(private readonly api: () => Api) {}

  clear(): void {
    byId('statement-rows').replaceChildren();
    show(byId('statement-table'), false);
  }

  async reload(): Promise<void> {
    const from = new Date(Date.now() - SHOWN_DAYS * 86_400_000).toISOString();
    let entries: StatementEntry[];
    try {
      ({ entries } = await this.api().request<{ entries: StatementEntry[] }>(
        'GET',
        `/me/statement?from=${encodeURIComponent(from)}&limit=1000`,
      ));
    } catch {
      return;
    }
    byId('statement-rows').replaceChildren(...[...entries].reverse().map((entry) => row(entry)));
    show(byId('statement-table'), entries.length > 0);
    show(byId('statement-empty'), entries.length === 0);
  }
}

function row(entry: StatementEntry): HTMLElement {
  const downloadsLeft = entry.balances.download_count?.remaining ?? '';
  return el(
    'tr',
    { 'data-kind': entry.kind },
    el('td', {}, formatDate(entry.at)),
    el('td', {}, KINDS[entry.kind] ?? entry.kind),
    el('td', {}, detail(entry)),
    el('td', {}, String(downloadsLeft)),
  );
}

function detail(entry: StatementEntry): string {
  if (entry.kind === 'charge') return `${entry.bandwidthMb ?? 0} MB · job ${entry.jobId ?? ''}`;
  if (entry.kind === 'period') return `plan ${entry.planId ?? ''}`;
  if (entry.units !== undefined) return `${entry.units} ${entry.feature ?? ''}`;
  return entry.feature ?? entry.jobId ?? entry.lookupId ?? '';
}
