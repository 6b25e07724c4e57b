import type { Knex } from 'knex';
import type pg from 'pg';

/**
 * Runs a fixed statement as a named (server-side prepared) query on a
 * connection borrowed from knex's pool: the hot read paths skip knex's query
 * building, and PostgreSQL plans each statement once per connection.
 * `name` must be unique per distinct `text`.
 */
export async function preparedQuery<Row extends object>(db: Knex, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const connection = (await db.client.acquireConnection()) as pg.ClientBase;
  try {
    return (await connection.query<Row>({ name, text, values })).rows;
  } finally {
    await db.client.releaseConnection(connection);
  }
}
