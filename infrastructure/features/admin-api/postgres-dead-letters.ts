import type { Knex } from 'knex';
import type { DeadLetter, DeadLetterStore } from '../../../application/ports/operations-status.js';
import { DEAD_LETTER_TABLE } from '../../postgres/dead-letter-table.js';

interface DeadLetterRow {
  id: string;
  recorded_at: Date;
  reason: string;
  subject: string | null;
  deliveries: number | null;
  body: unknown;
  replayed_at: Date | null;
}

const COLUMNS = ['id', 'recorded_at', 'reason', 'subject', 'deliveries', 'body', 'replayed_at'];

/** The `dead_letters` table both work queues record into; it exists once any process has opened the queue. */
export class PostgresDeadLetters implements DeadLetterStore {
  constructor(private readonly db: Knex) {}

  async list(page: { offset: number; limit: number }): Promise<{ deadLetters: DeadLetter[]; total: number }> {
    if (!(await this.db.schema.hasTable(DEAD_LETTER_TABLE))) return { deadLetters: [], total: 0 };
    const [rows, [{ count }]] = await Promise.all([
      this.db(DEAD_LETTER_TABLE)
        .select<DeadLetterRow[]>(COLUMNS)
        .orderBy('id', 'desc')
        .offset(page.offset)
        .limit(page.limit),
      this.db(DEAD_LETTER_TABLE).count<{ count: string }[]>({ count: '*' }),
    ]);
    return { deadLetters: rows.map(toDeadLetter), total: Number(count) };
  }

  async get(id: string): Promise<DeadLetter | null> {
    if (!/^\d{1,18}$/.test(id) || !(await this.db.schema.hasTable(DEAD_LETTER_TABLE))) return null;
    const [row] = await this.db(DEAD_LETTER_TABLE).select<DeadLetterRow[]>(COLUMNS).where('id', id);
    return row === undefined ? null : toDeadLetter(row);
  }

  async markReplayed(id: string, at: Date): Promise<boolean> {
    const updated = await this.db(DEAD_LETTER_TABLE)
      .where('id', id)
      .whereNull('replayed_at')
      .update({ replayed_at: at });
    return updated > 0;
  }
}

function toDeadLetter(row: DeadLetterRow): DeadLetter {
  return {
    id: String(row.id),
    recordedAt: new Date(row.recorded_at).toISOString(),
    reason: row.reason,
    subject: row.subject,
    deliveries: row.deliveries,
    body: row.body,
    replayedAt: row.replayed_at === null ? null : new Date(row.replayed_at).toISOString(),
  };
}
