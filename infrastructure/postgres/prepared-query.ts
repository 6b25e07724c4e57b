import type { Knex } from 'knex';
import pg from 'pg';
import type { SqlClient } from '../event-store/postgres/sql-client.js';

/**
 * Runs a fixed statement as a named (server-side prepared) query on a
 * connection borrowed from knex's pool: the hot read paths skip knex's query
 * building, and PostgreSQL plans each statement once per connection.
 * `name` must be unique per distinct `text`. PGlite's one in-process
 * connection (embedded mode) takes no statement names; it runs the text as is,
 * and with its own type parsers rather than `types`.
 */
export async function preparedQuery<Row extends object>(db: Knex, name: string, text: string, values: unknown[], types?: pg.CustomTypesConfig): Promise<Row[]> {
  const connection = (await db.client.acquireConnection()) as pg.ClientBase | SqlClient;
  try {
    if (connection instanceof pg.Client) return (await connection.query<Row>({ name, text, values, ...(types === undefined ? {} : { types }) })).rows;
    return (await (connection as SqlClient).query<Row>(text, values)).rows;
  } finally {
    await db.client.releaseConnection(connection);
  }
}
