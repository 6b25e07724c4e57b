import type { FeatureBalance } from '../../domain/account/balances.js';
import type { FeatureId } from '../../domain/account/plan.js';
import type { LedgerEntry, ReplayAccountLedger } from './replay-account-ledger.js';

export interface StatementQuery {
  /** Entries at or after this time (ISO 8601); all when absent. */
  from?: string;
  /** Entries before this time; all when absent. */
  to?: string;
  /** Entries after this revision of the account stream (the cursor of the previous page); -1 from the start. */
  afterRevision: number;
  limit: number;
}

export interface StatementPage {
  accountId: string;
  entries: LedgerEntry[];
  /** The revision to continue after, or null on the last page. */
  nextAfterRevision: number | null;
  /** The balances the whole stream folds to now, as `GET /me` shows them. */
  balances: Partial<Record<FeatureId, FeatureBalance>>;
}

/**
 * An account holder's own statement: the auditors' ledger of the account's stream (charges, releases, grants, period
 * changes, each with the running balances after it), between two times, a page at a time in stream order.
 */
export class ReadAccountStatement {
  constructor(private readonly ledger: ReplayAccountLedger) {}

  async execute(accountId: string, query: StatementQuery): Promise<StatementPage | null> {
    const report = await this.ledger.execute(accountId);
    if (report === null) return null;
    const from = query.from === undefined ? Number.NEGATIVE_INFINITY : Date.parse(query.from);
    const to = query.to === undefined ? Number.POSITIVE_INFINITY : Date.parse(query.to);
    const matching = report.entries.filter((entry) => {
      const at = Date.parse(entry.at);
      return entry.revision > query.afterRevision && at >= from && at < to;
    });
    const entries = matching.slice(0, query.limit);
    const more = matching.length > entries.length;
    return {
      accountId,
      entries,
      nextAfterRevision: more ? (entries.at(-1)?.revision ?? null) : null,
      balances: report.replayed,
    };
  }
}
