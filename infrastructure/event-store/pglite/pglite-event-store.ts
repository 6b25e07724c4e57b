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
import { WakeSignal } from '../../system/wake-signal.js';
import { toAppendError } from '../postgres/append-error.js';
import { appendInTransaction, readStreamRevision } from '../postgres/append-in-transaction.js';
import { PostgresSubscription } from '../postgres/postgres-subscription.js';
import { comparePositions, decodePosition } from '../postgres/checkpoint.js';
import { readGlobalPage } from '../postgres/read-global-page.js';
import { readHeadPosition } from '../postgres/read-head-position.js';
import { readStreamEvents } from '../postgres/read-stream.js';
import { EVENT_STORE_SCHEMA } from '../postgres/schema.js';
import type { SqlClient } from '../postgres/sql-client.js';

const DEFAULT_READ_ALL_COUNT = 1000;
const DEFAULT_BATCH_SIZE = 100;

interface ConnectionPool {
  acquireConnection(): Promise<PGlite>;
  releaseConnection(connection: PGlite): Promise<unknown>;
}

/**
 * The PostgreSQL event store's own SQL on the embedded PGlite database. What differs, and why:
 * - One connection, which knex's pool of one hands to each operation, so appends and read-model transactions never
 *   nest; code must not call the store from inside a knex transaction, or it waits for the connection that one holds.
 * - The snapshot gate stays in the SQL but always passes: no other transaction can be open while a page is read.
 * - Every writer is in this process, so a committed append wakes the subscriptions directly, without NOTIFY.
 * - No idle-in-transaction timeout: each call commits or rolls back before it gives the connection back.
 */
export class PgliteEventStore implements EventStore {
  private readonly news = new WakeSignal();
  private readonly subscriptions = new Set<PostgresSubscription>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing: Promise<void> | null = null;
  private readonly pollIntervalMs: number;
  private readonly idlePollMs: number | undefined;

  constructor(
    private readonly db: Knex,
    options: { pollIntervalMs?: number; idlePollMs?: number } = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.idlePollMs = options.idlePollMs;
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
        this.news.wakeAll();
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

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const page = await this.withConnection((connection) =>
      readGlobalPage(
        sqlClient(connection),
        options.after ?? null,
        options.maxCount ?? DEFAULT_READ_ALL_COUNT,
        options.filter,
      ),
    );
    return page.events;
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const subscription = new PostgresSubscription(
      (after, maxCount) =>
        this.withConnection((connection) => readGlobalPage(sqlClient(connection), after, maxCount, options.filter)),
      (timeoutMs, signal) => this.news.wait(timeoutMs, signal),
      {
        after: options.after ?? null,
        batchSize: Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE),
        pollIntervalMs: this.pollIntervalMs,
        idlePollMs: this.idlePollMs,
      },
      () => this.subscriptions.delete(subscription),
    );
    if (this.closing !== null) void subscription.close();
    else this.subscriptions.add(subscription);
    return subscription;
  }

  compare(a: Checkpoint, b: Checkpoint): number {
    return comparePositions(decodePosition(a), decodePosition(b));
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
      await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
      this.news.wakeAll();
      await Promise.allSettled([...this.inFlight]);
    })();
    return this.closing;
  }

  private withConnection<T>(work: (connection: PGlite) => Promise<T>): Promise<T> {
    if (this.closing !== null) return Promise.reject(new Error('The event store is closed'));
    const pool = this.db.client as ConnectionPool;
    const running = (async () => {
      const connection = await pool.acquireConnection();
      try {
        return await work(connection);
      } finally {
        await pool.releaseConnection(connection);
      }
    })();
    this.inFlight.add(running);
    const forget = () => this.inFlight.delete(running);
    running.then(forget, forget);
    return running;
  }
}

function sqlClient(connection: PGlite): SqlClient {
  return connection as unknown as SqlClient;
}
