import type { Knex } from 'knex';
import { stripInfoSecrets } from './strip-info-secrets.js';

/**
 * Metadata pages extracted at submission, kept briefly so the job's download
 * starts from them instead of extracting the page again. Shared through
 * PostgreSQL because the API and the workers are separate processes. Keyed
 * by the URL as submitted and by the cookie identity the extraction ran
 * with: what a page shows depends on who asks. Pages are stored without
 * their cookies and request headers (see stripInfoSecrets): a database is
 * no place for a session.
 */
export class PostgresExtractedInfoCache {
  private ready: Promise<void> | null = null;
  private writes = 0;

  constructor(
    private readonly db: Knex,
    private readonly maxAgeMs: number,
  ) {}

  async remember(url: string, cookieIdentity: string, infoJson: string): Promise<void> {
    await this.ensureTable();
    await this.db.raw(
      `INSERT INTO extracted_video_info (url, cookie_identity, info, extracted_at) VALUES (?, ?, ?, now())
       ON CONFLICT (url, cookie_identity) DO UPDATE SET info = excluded.info, extracted_at = excluded.extracted_at`,
      [url, cookieIdentity, JSON.stringify(stripInfoSecrets(JSON.parse(infoJson)))],
    );
    // Expired pages go now and then, by whoever writes.
    this.writes += 1;
    if (this.writes % 100 === 1)
      await this.db.raw(`DELETE FROM extracted_video_info WHERE extracted_at < now() - ?::interval`, [
        `${this.maxAgeMs} milliseconds`,
      ]);
  }

  /** The page extracted for this URL and identity within the last `maxAgeMs`, or null. */
  async recall(url: string, cookieIdentity: string): Promise<string | null> {
    await this.ensureTable();
    const { rows } = await this.db.raw<{ rows: Array<{ info: string }> }>(
      `SELECT info FROM extracted_video_info WHERE url = ? AND cookie_identity = ? AND extracted_at >= now() - ?::interval`,
      [url, cookieIdentity, `${this.maxAgeMs} milliseconds`],
    );
    return rows[0]?.info ?? null;
  }

  private ensureTable(): Promise<void> {
    this.ready ??= this.db
      .transaction(async (trx) => {
        // Processes starting together would otherwise race inside CREATE TABLE IF NOT EXISTS.
        await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('extracted_video_info'))`);
        await trx.raw(`CREATE TABLE IF NOT EXISTS extracted_video_info (
          url text NOT NULL, cookie_identity text NOT NULL, info text NOT NULL, extracted_at timestamptz NOT NULL,
          PRIMARY KEY (url, cookie_identity))`);
      })
      .catch((error: unknown) => {
        this.ready = null;
        throw error;
      });
    return this.ready;
  }
}
