import type { Knex } from 'knex';
import type { FailingWebhookDeliveries, FailingWebhookDelivery } from '../../../application/ports/operations-status.js';

interface FailingRow {
  stream_name: string;
  job_id: string;
  account_id: string;
  url: string | null;
  event: string | null;
  attempts: number;
  state: FailingWebhookDelivery['state'];
  status_code: number | null;
  error_class: string | null;
  detail: string | null;
  failed_at: Date;
  next_attempt_at: Date | null;
}

/** Rows of deliveries whose last attempt failed; those with an attempt under way and no failure yet are not listed. */
export class PostgresFailingWebhooks implements FailingWebhookDeliveries {
  constructor(private readonly db: Knex) {}

  async list(page: { offset: number; limit: number }) {
    const failed = () => this.db<FailingRow>('failing_webhook_deliveries').whereNotNull('failed_at');
    const [rows, [{ count }]] = await Promise.all([
      failed().orderBy('failed_at', 'desc').orderBy('stream_name').offset(page.offset).limit(page.limit),
      failed().count<{ count: string }[]>({ count: '*' }),
    ]);
    return { deliveries: rows.map(toDelivery), total: Number(count) };
  }
}

function toDelivery(row: FailingRow): FailingWebhookDelivery {
  return {
    streamName: row.stream_name,
    jobId: row.job_id,
    accountId: row.account_id,
    url: row.url,
    event: row.event,
    attempts: row.attempts,
    state: row.state,
    statusCode: row.status_code,
    errorClass: row.error_class,
    detail: row.detail,
    failedAt: new Date(row.failed_at).toISOString(),
    nextAttemptAt: row.next_attempt_at === null ? null : new Date(row.next_attempt_at).toISOString(),
  };
}
