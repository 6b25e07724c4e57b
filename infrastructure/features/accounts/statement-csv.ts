import type { StatementPage } from '../../../application/audit/account-statement.js';
import type { LedgerEntry } from '../../../application/audit/replay-account-ledger.js';

const FEATURE_ORDER = ['download_count', 'bandwidth_mb', 'info', 'client_download', 'channel_list'];

/** The page as CSV (RFC 4180): one row per entry, then used and remaining per feature after it. */
export function statementCsv(page: StatementPage): string {
  const features = FEATURE_ORDER.filter((feature) => page.entries.some((entry) => feature in entry.balances));
  const header = [
    'at',
    'kind',
    'revision',
    'feature',
    'reference',
    'units',
    'bandwidth_mb',
    'file_size_bytes',
    'subject',
    ...features.flatMap((feature) => [`${feature}_used`, `${feature}_remaining`]),
  ];
  const rows = page.entries.map((entry) => [
    ...describe(entry),
    ...features.flatMap((feature) => {
      const balance = entry.balances[feature as keyof typeof entry.balances];
      return balance === undefined ? ['', ''] : [String(balance.used), String(balance.remaining)];
    }),
  ]);
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** at, kind, revision, feature, reference, units, bandwidth MB, file size, subject. */
function describe(entry: LedgerEntry): string[] {
  const common = [entry.at, entry.kind, String(entry.revision)];
  switch (entry.kind) {
    case 'charge':
      return [
        ...common,
        'download',
        entry.jobId,
        String(entry.downloads),
        String(entry.bandwidthMb),
        String(entry.fileSizeBytes),
        '',
      ];
    case 'lookup-charge':
      return [...common, entry.feature, entry.lookupId, String(entry.units), '', '', entry.subject];
    case 'release':
      return [...common, entry.feature, entry.reference, '', '', '', ''];
    case 'grant':
      return [...common, entry.feature, '', String(entry.units), '', '', ''];
    case 'period':
      return [...common, '', entry.planId, '', '', '', `${entry.periodStart}..${entry.periodEnd ?? ''}`];
  }
}

/**
 * Quoted when it holds a comma, quote or line break; a cell a spreadsheet would read as a formula (a URL looked up
 * is the client's own text) is led by an apostrophe.
 */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
