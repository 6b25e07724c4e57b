import type { PGlite } from '@electric-sql/pglite';
import type { Knex } from 'knex';
import type {
  AppendOptions,
  AppendResult,
  Checkpoint,
  EventStore,
  EventToAppend,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../../../application/ports/event-store.js';
import { toAppendError } from '../postgres/append-error.js';
import { appendInTransaction, categoryOf, readStreamRevision } from '../postgres/append-in-transaction.js';
import { CallsUnderWay } from '../postgres/calls-under-way.js';
import { CategoryNews } from '../postgres/category-news.js';
import { compareCheckpoints } from '../postgres/checkpoint.js';
import { readAllEvents, readGlobalPage } from '../postgres/read-global-page.js';
import { readHeadPosition } from '../postgres/read-head-position.js';
import { readStreamEvents } from '../postgres/read-stream.js';
import { EVENT_STORE_SCHEMA } from '../postgres/schema.js';
import type { SqlClient } from '../postgres/sql-client.js';
import { Subscribers, type SubscriptionPace } from '../postgres/subscribers.js';

interface ConnectionPool {
  acquireConnection(): Promise<PGlite>;
  releaseConnection(connection: PGlite): Promise<unknown>;
}

/**
 * The PostgreSQL event store's own SQL on the embedded PGlite database. What differs, and why:
 * - One connection, which knex's pool of one hands to each operation, so appends and read-model transactions never
 *   nest; code must not call the store from inside a knex transaction, or it waits for the connection that one holds.
 * - The snapshot gate stays in the SQL but always passes: no other transaction can be open while a page is read.
 * - Every writer is in this process, so a committed append tells the subscriptions of its category directly, without
 *   NOTIFY.
 * - No idle-in-transaction timeout: each call commits or rolls back before it gives the connection back.
 */
export class PgliteEventStore implements EventStore {
  private readonly news = new CategoryNews();
  private readonly subscribers: Subscribers;
  private readonly calls = new CallsUnderWay();
  private closing: Promise<void> | null = null;

  constructor(
    private readonly db: Knex,
    pace: SubscriptionPace = {},
  ) {
    this.subscribers = new Subscribers(
      {
        readPage: (after, maxCount, filter) =>
          this.withConnection((connection) => readGlobalPage(sqlClient(connection), after, maxCount, filter)),
        news: this.news,
      },
      pace,
    );
  }

  /** Creates the tables if missing. */
  async migrate(): Promise<void> {
    await this.withConnection(async (connection) => {
      await connection.query('BEGIN');
      try {
        for (const statement of EVENT_STORE_SCHEMA) await connection.query(statement);
        await connection.query('COMMIT');
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  appendToStream(streamName: string, events: readonly EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    return this.withConnection(async (connection) => {
      const client = sqlClient(connection);
      await connection.query('BEGIN');
      try {
        const result = await appendInTransaction(client, streamName, events, options.expectedRevision);
        await connection.query('COMMIT');
        this.news.announce([categoryOf(streamName)]);
        return result;
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => undefined);
        throw await toAppendError(error, streamName, options, () => readStreamRevision(client, streamName));
      }
    });
  }

  readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return this.withConnection((connection) => readStreamEvents(sqlClient(connection), streamName, options));
  }

  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.withConnection((connection) => readAllEvents(sqlClient(connection), options));
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    return this.subscribers.subscribe(options);
  }

  compare(a: Checkpoint, b: Checkpoint): number {
    return compareCheckpoints(a, b);
  }

  headPosition(): Promise<Checkpoint | null> {
    return this.withConnection((connection) => readHeadPosition(sqlClient(connection)));
  }

  async ping(): Promise<boolean> {
    try {
      await this.withConnection((connection) => connection.query('SELECT 1'));
      return true;
    } catch {
      return false;
    }
  }

  /** Ends subscriptions and the listening, and waits for calls under way; the database itself stays open. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const callsSettled = this.calls.close();
      await this.subscribers.closeAll();
      this.news.wakeAll();
      await callsSettled;
    })();
    return this.closing;
  }

  private withConnection<T>(work: (connection: PGlite) => Promise<T>): Promise<T> {
    const pool = this.db.client as ConnectionPool;
    return this.calls.run(async () => {
      const connection = await pool.acquireConnection();
      try {
        return await work(connection);
      } finally {
        await pool.releaseConnection(connection);
      }
    });
  }
}

function sqlClient(connection: PGlite): SqlClient {
  return connection as unknown as SqlClient;
}
