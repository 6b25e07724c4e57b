import type { Knex } from 'knex';
import type { WebhookSchedule } from '../../application/webhooks/webhook-schedule.js';

/** A feature's webhook schedule in its own table: `<idColumn> text PRIMARY KEY, due_at timestamptz NOT NULL`. */
export class PostgresWebhookSchedule implements WebhookSchedule {
  constructor(
    private readonly db: Knex,
    private readonly table: string,
    private readonly idColumn: string,
  ) {}

  async schedule(id: string, at: Date): Promise<void> {
    await this.db(this.table)
      .insert({ [this.idColumn]: id, due_at: at.toISOString() })
      .onConflict(this.idColumn)
      .merge();
  }

  async due(now: Date, limit: number): Promise<string[]> {
    const rows: Array<Record<string, string>> = await this.db(this.table)
      .where('due_at', '<=', now.toISOString())
      .orderBy('due_at')
      .limit(limit)
      .select(this.idColumn);
    return rows.map((row) => row[this.idColumn]);
  }

  async done(id: string): Promise<void> {
    await this.db(this.table)
      .where({ [this.idColumn]: id })
      .delete();
  }
}
