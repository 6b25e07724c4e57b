import type { Knex } from 'knex';
import type { AdminRequestLog, RecordedAnswer } from '../../../application/ports/admin-request-log.js';

interface AdminRequestRow {
  request_hash: string;
  status: number;
  body: unknown;
}

/** Kept for good: a payment system may retry days later, and a row is a few hundred bytes. */
export class PostgresAdminRequestLog implements AdminRequestLog {
  constructor(private readonly db: Knex) {}

  async find(tokenId: string, idempotencyKey: string): Promise<RecordedAnswer | null> {
    const row: AdminRequestRow | undefined = await this.db('admin_requests')
      .where('token_id', tokenId)
      .andWhere('idempotency_key', idempotencyKey)
      .first('request_hash', 'status', 'body');
    return row === undefined ? null : { requestHash: row.request_hash, status: row.status, body: row.body };
  }

  async record(tokenId: string, idempotencyKey: string, answer: RecordedAnswer): Promise<RecordedAnswer> {
    const inserted = await this.db('admin_requests')
      .insert({
        token_id: tokenId,
        idempotency_key: idempotencyKey,
        request_hash: answer.requestHash,
        status: answer.status,
        body: answer.body === undefined ? null : JSON.stringify(answer.body),
      })
      .onConflict(['token_id', 'idempotency_key'])
      .ignore()
      .returning('token_id');
    if (inserted.length > 0) return answer;
    return (await this.find(tokenId, idempotencyKey)) ?? answer;
  }
}
