import knex, { type Knex } from 'knex';
import { IDLE_IN_TRANSACTION_TIMEOUT_MS } from './session-timeouts.js';

export function createKnex(connectionString: string, poolSize = 10): Knex {
  return knex({
    client: 'pg',
    connection: connectionString,
    pool: {
      min: 0,
      max: poolSize,
      // A read-model transaction left open would hold back the event store's global readers.
      afterCreate: (
        connection: { query: (sql: string, done: (error: Error | null) => void) => void },
        done: (error: Error | null, connection: unknown) => void,
      ) => {
        connection.query(`SET idle_in_transaction_session_timeout = ${IDLE_IN_TRANSACTION_TIMEOUT_MS}`, (error) =>
          done(error, connection),
        );
      },
    },
  });
}
