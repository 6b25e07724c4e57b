import type { Knex } from 'knex';
import type { BatchWebhookSchedule } from '../../../application/batches/batch-webhook-schedule.js';

export class PostgresBatchWebhookSchedule implements BatchWebhookSchedule {
  constructor(private readonly db: Knex) {}

  async schedule(batchId: string, at: Date): Promise<void> {
    await this.db('batch_process_webhooks')
      .insert({ batch_id: batchId, due_at: at.toISOString() })
      .onConflict('batch_id')
      .merge();
  }

  async due(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db('batch_process_webhooks')
      .where('due_at', '<=', now.toISOString())
      .orderBy('due_at')
      .limit(limit)
      .select('batch_id');
    return rows.map((row: { batch_id: string }) => row.batch_id);
  }

  async done(batchId: string): Promise<void> {
    await this.db('batch_process_webhooks').where({ batch_id: batchId }).delete();
  }
}
