import type { Knex } from 'knex';
import { DEAD_LETTER_TABLE } from '../postgres/dead-letter-table.js';
import { WORK_QUEUE_TABLE } from './work-queue-schema.js';

export interface DeadLetteredWork {
  id: string;
  subject: string;
  deliveries: number;
  payload: unknown;
}

/** Shown in `dead_letters.stream` for rows of the in-process queue. */
const IN_PROCESS_STREAM = WORK_QUEUE_TABLE;

/**
 * Moves to `dead_letters` (reason `max_deliveries`, as JetStream's advisory
 * says) the rows of `subject` whose last allowed delivery ended without a
 * result: its process died, or stopped and handed it back. The claim never
 * takes such a row again, so without this it would stay for ever; what its
 * work held (a reservation, a running job) is settled by the reconciler, as
 * after a JetStream dead letter. One transaction, so a row is moved whole.
 */
export async function deadLetterExhaustedWork(
  db: Knex,
  subject: string,
  maxDeliver: number,
): Promise<DeadLetteredWork[]> {
  return db.transaction(async (trx) => {
    const { rows } = await trx.raw<{
      rows: Array<{ id: string; subject: string; deliveries: number; payload: unknown }>;
    }>(
      `DELETE FROM ${WORK_QUEUE_TABLE}
       WHERE subject = ? AND deliveries >= ? AND (leased_until IS NULL OR leased_until <= clock_timestamp())
       RETURNING id::text, subject, deliveries, payload`,
      [subject, maxDeliver],
    );
    if (rows.length === 0) return [];
    await trx(DEAD_LETTER_TABLE)
      .insert(
        rows.map((row) => ({
          reason: 'max_deliveries',
          stream: IN_PROCESS_STREAM,
          consumer: subject,
          stream_seq: row.id,
          deliveries: row.deliveries,
          subject: row.subject,
          body: JSON.stringify(row.payload),
        })),
      )
      .onConflict(['stream', 'stream_seq', 'reason'])
      .ignore();
    return rows.map((row) => ({ ...row, deliveries: Number(row.deliveries) }));
  });
}
