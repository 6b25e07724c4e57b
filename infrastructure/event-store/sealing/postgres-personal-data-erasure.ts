import type { Knex } from 'knex';
import type { PersonalDataErasure } from '../../../application/ports/personal-data-erasure.js';
import type { PersonalDataSealing } from '../../security/personal-data/personal-data-sealing.js';
import { sealWrittenBefore } from './seal-written-before.js';

export interface PersonalDataErasureOptions {
  db: Knex;
  sealing: PersonalDataSealing;
  /** The features' statements (ERASURE_STATEMENTS). */
  statements: readonly string[];
}

export class PostgresPersonalDataErasure implements PersonalDataErasure {
  constructor(private readonly options: PersonalDataErasureOptions) {}

  async sealWrittenBefore(accountId: string): Promise<void> {
    const { db, sealing } = this.options;
    // With EventStoreDB, what its events hold in plain text reads as erased from now on but stays in its files.
    if (sealing.eventsRewritable) await sealWrittenBefore(db, sealing.keys, accountId);
  }

  async destroyKey(accountId: string): Promise<void> {
    await this.options.sealing.keyStore.destroy(accountId);
    this.options.sealing.keys.destroyed(accountId);
  }

  async forgetReadModels(accountId: string): Promise<void> {
    const { db, statements } = this.options;
    await db.transaction(async (trx) => {
      await forgetExtractedInfo(trx, accountId);
      for (const statement of statements)
        await trx.raw(
          statement,
          Array.from(statement.matchAll(/\?/g), () => accountId),
        );
    });
  }
}

/** The extractor's cache is keyed by video, not account, but the account's videos are dropped from it too. */
async function forgetExtractedInfo(trx: Knex.Transaction, accountId: string): Promise<void> {
  const { rows } = (await trx.raw(`SELECT to_regclass('extracted_video_info') IS NOT NULL AS present`)) as {
    rows: Array<{ present: boolean }>;
  };
  if (!rows[0]?.present) return;
  await trx.raw(
    `DELETE FROM extracted_video_info WHERE url IN (
       SELECT url FROM download_jobs WHERE account_id = ? UNION SELECT url FROM lookup_jobs WHERE account_id = ?)`,
    [accountId, accountId],
  );
}
