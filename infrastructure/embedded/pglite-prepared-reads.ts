import type { Knex } from 'knex';
import type { SqlClient } from '../event-store/postgres/sql-client.js';
import type { PreparedReads } from '../postgres/prepared-reads.js';

/**
 * Embedded mode: the hot reads go through knex to PGlite's one connection,
 * which keeps them out of any transaction another caller has open on it.
 * PGlite takes no statement names, so each runs as plain text.
 */
export class PglitePreparedReads implements PreparedReads {
  constructor(private readonly db: Knex) {}

  async query<Row extends object>(_name: string, text: string, values: unknown[]): Promise<Row[]> {
    const connection = (await this.db.client.acquireConnection()) as SqlClient;
    try {
      return (await connection.query<Row>(text, values)).rows;
    } finally {
      await this.db.client.releaseConnection(connection);
    }
  }

  async close(): Promise<void> {
    // PGlite closes with the rest of the embedded storage.
  }
}
