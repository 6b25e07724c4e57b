import type { Knex } from 'knex';
import type { KeyUsage } from '../../application/ports/key-usage.js';
import type { Logger } from '../../application/ports/logger.js';

/** A key's use is written at most this often per process: the time is shown to the minute. */
const NOTE_EVERY_MS = 60_000;
const MAX_REMEMBERED_KEYS = 10_000;

/**
 * `api_key_usage`: one row per key, its last use. Each API process writes a key's row at most once a minute, in the
 * background, so a request never waits on it and a poll-heavy client costs one small write a minute, not one per poll.
 */
export class PostgresKeyUsage implements KeyUsage {
  private readonly notedAt = new Map<string, number>();

  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  noteUse(keyId: string): void {
    const now = this.now();
    const last = this.notedAt.get(keyId);
    if (last !== undefined && now - last < NOTE_EVERY_MS) return;
    if (this.notedAt.size >= MAX_REMEMBERED_KEYS) this.notedAt.clear();
    this.notedAt.set(keyId, now);
    this.db('api_key_usage')
      .insert({ key_id: keyId, last_used_at: new Date(now) })
      .onConflict('key_id')
      .merge()
      .catch((error: unknown) => {
        // Tried again on the key's next use.
        this.notedAt.delete(keyId);
        this.logger.debug?.({ err: error }, 'A key use was not recorded');
      });
  }

  async lastUsed(keyIds: readonly string[]): Promise<ReadonlyMap<string, string>> {
    if (keyIds.length === 0) return new Map();
    const rows = await this.db('api_key_usage')
      .whereIn('key_id', keyIds)
      .select<{ key_id: string; last_used_at: Date }[]>('key_id', 'last_used_at');
    return new Map(rows.map((row) => [row.key_id, new Date(row.last_used_at).toISOString()]));
  }
}
