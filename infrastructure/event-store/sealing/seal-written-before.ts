import type { Knex } from 'knex';
import { PERSONAL_FIELDS, mapPersonalFields } from '../../../domain/personal-data/personal-fields.js';
import type { AccountDataKeys } from '../../security/personal-data/account-data-keys.js';
import { isSealed } from '../../security/personal-data/personal-data-cipher.js';

const PAGE = 500;

export interface SealReport {
  /** Events with personal fields looked at. */
  scanned: number;
  /** Of those, events that held a plain value and were sealed now. */
  sealed: number;
}

/**
 * Seals, in place, the personal fields that events written before sealing began hold in plain text (all accounts', or
 * one account's). Only the `data` column changes: stream names, revisions, ids and positions stay, so checkpoints,
 * idempotent appends and every reference by job or stream keep working, which a copy under new stream names would break.
 * Safe to run while the service runs and to run again: a sealed value is left as it is, and an erased account's plain
 * values become its markers. Only for the PostgreSQL event store (EventStoreDB's events cannot be rewritten).
 */
export async function sealWrittenBefore(db: Knex, keys: AccountDataKeys, accountId?: string): Promise<SealReport> {
  const report: SealReport = { scanned: 0, sealed: 0 };
  let after = '0';
  for (;;) {
    const { rows } = (await db.raw(
      `SELECT global_position::text AS position, event_type, data FROM es_events
        WHERE event_type = ANY(?) AND global_position > ?::bigint ${accountId === undefined ? '' : `AND data->>'accountId' = ?`}
        ORDER BY global_position LIMIT ?`,
      [Object.keys(PERSONAL_FIELDS), after, ...(accountId === undefined ? [] : [accountId]), PAGE],
    )) as { rows: Array<{ position: string; event_type: string; data: Record<string, unknown> }> };
    if (rows.length === 0) return report;
    for (const row of rows) {
      report.scanned += 1;
      if (await sealRow(db, keys, row)) report.sealed += 1;
    }
    after = (rows.at(-1) as { position: string }).position;
  }
}

async function sealRow(
  db: Knex,
  keys: AccountDataKeys,
  row: { position: string; event_type: string; data: Record<string, unknown> },
): Promise<boolean> {
  let plain = false;
  mapPersonalFields(row.event_type, row.data, (value) => {
    if (!isSealed(value)) plain = true;
    return value;
  });
  const owner = row.data.accountId;
  if (!plain || typeof owner !== 'string') return false;
  const cipher = await keys.forSealing(owner);
  const sealed = mapPersonalFields(row.event_type, row.data, (value) =>
    cipher === 'erased' ? '[erased]' : cipher.seal(value),
  );
  await db.raw('UPDATE es_events SET data = ?::jsonb WHERE global_position = ?::bigint', [
    JSON.stringify(sealed),
    row.position,
  ]);
  return true;
}
