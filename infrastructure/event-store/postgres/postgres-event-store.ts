import pg from 'pg';
import {
  type AppendOptions,
  type AppendResult,
  DuplicateEventError,
  type EventFilter,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevisionError,
} from '../../../application/ports/event-store.js';
import { decodePosition, encodePosition } from './checkpoint.js';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from './event-rows.js';
import { NotificationListener } from './notification-listener.js';
import { EVENTS_CHANNEL, EVENT_STORE_SCHEMA } from './schema.js';
import { PostgresSubscription } from './postgres-subscription.js';

export interface PostgresEventStoreOptions {
  connectionString: string;
  poolSize?: number;
  /** How often idle subscriptions look for new events when no notification arrives. */
  pollIntervalMs?: number;
}

const UNIQUE_VIOLATION = '23505';

/** The default event store: events in PostgreSQL, with a global order that concurrent writers cannot break. */
export class PostgresEventStore implements EventStore {
  private readonly pool: pg.Pool;
  private readonly listener: NotificationListener;
  private readonly subscriptions = new Set<PostgresSubscription>();
  private readonly pollIntervalMs: number;

  constructor(options: PostgresEventStoreOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 10,
      // A transaction left open would hold every global reader back at its xmin.
      options: '-c idle_in_transaction_session_timeout=30000',
    });
    // An idle client that loses its server must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    this.listener = new NotificationListener(options.connectionString, EVENTS_CHANNEL);
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
  }

  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('es-schema'))`);
      for (const statement of EVENT_STORE_SCHEMA) await client.query(statement);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async appendToStream(streamName: string, events: readonly EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    if (events.length === 0) throw new Error('appendToStream needs at least one event');
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Taken before anything is written, so the transaction id (assigned at the first write) follows the lock order of the stream.
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [streamName]);
      const current = await client.query<{ revision: string }>('SELECT revision::text FROM es_streams WHERE stream_name = $1', [streamName]);
      const actual = current.rows.length === 0 ? -1 : Number(current.rows[0].revision);
      if (!matchesExpected(options.expectedRevision, actual)) {
        throw new WrongExpectedRevisionError(streamName, options.expectedRevision, actual);
      }
      const inserted = await client.query<{ global_position: string; transaction_id: string }>(
        `INSERT INTO es_events (stream_name, stream_revision, event_id, event_type, data, metadata)
         SELECT $1, revision, id, type, data, metadata
         FROM unnest($2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[]) AS e(revision, id, type, data, metadata)
         RETURNING global_position::text, transaction_id::text`,
        [
          streamName,
          events.map((_, index) => actual + 1 + index),
          events.map((event) => event.id),
          events.map((event) => event.type),
          events.map((event) => JSON.stringify(event.data)),
          events.map((event) => JSON.stringify(event.metadata ?? {})),
        ],
      );
      const nextExpectedRevision = actual + events.length;
      await client.query(
        `INSERT INTO es_streams (stream_name, category, revision) VALUES ($1, $2, $3)
         ON CONFLICT (stream_name) DO UPDATE SET revision = EXCLUDED.revision`,
        [streamName, streamName.split('-')[0], nextExpectedRevision],
      );
      await client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, streamName]);
      await client.query('COMMIT');
      const last = inserted.rows.reduce((max, row) => (BigInt(row.global_position) > BigInt(max.global_position) ? row : max));
      return { nextExpectedRevision, position: encodePosition({ transactionId: last.transaction_id, globalPosition: last.global_position }) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw translateError(error, streamName, options.expectedRevision);
    } finally {
      client.release();
    }
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const limit = options.maxCount ?? null;
    const from = options.fromRevision ?? (backwards ? Number.MAX_SAFE_INTEGER : 0);
    const result = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events
       WHERE stream_name = $1 AND stream_revision ${backwards ? '<=' : '>='} $2
       ORDER BY es_events.stream_revision ${backwards ? 'DESC' : 'ASC'} LIMIT $3`,
      [streamName, from, limit],
    );
    return result.rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const parameters: unknown[] = [];
    const conditions = ['transaction_id < pg_snapshot_xmin(pg_current_snapshot())'];
    if (options.after !== undefined && options.after !== null) {
      const { transactionId, globalPosition } = decodePosition(options.after);
      parameters.push(transactionId, globalPosition);
      conditions.push(`(transaction_id, global_position) > ($${parameters.length - 1}::xid8, $${parameters.length}::bigint)`);
    }
    conditions.push(...filterConditions(options.filter, parameters));
    parameters.push(options.maxCount ?? 1000);
    const result = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE ${conditions.join(' AND ')}
       ORDER BY es_events.transaction_id, es_events.global_position LIMIT $${parameters.length}`,
      parameters,
    );
    return result.rows.map(toRecordedEvent);
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const subscription = new PostgresSubscription(
      (after, maxCount) => this.readAll({ after, maxCount, filter: options.filter }),
      (timeoutMs, signal) => this.listener.wait(timeoutMs, signal),
      { after: options.after ?? null, batchSize: options.batchSize ?? 100, pollIntervalMs: this.pollIntervalMs },
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async ping(): Promise<boolean> {
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.listener.close();
    await this.pool.end();
  }
}

function matchesExpected(expected: ExpectedRevision, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === -1;
  if (expected === 'stream_exists') return actual >= 0;
  return expected === actual;
}

function filterConditions(filter: EventFilter | undefined, parameters: unknown[]): string[] {
  const conditions: string[] = [];
  if (filter?.eventTypes !== undefined) {
    parameters.push(filter.eventTypes);
    conditions.push(`event_type = ANY($${parameters.length}::text[])`);
  }
  if (filter?.streamPrefixes !== undefined) {
    parameters.push(filter.streamPrefixes.map((prefix) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
    conditions.push(`stream_name LIKE ANY($${parameters.length}::text[])`);
  }
  return conditions;
}

function translateError(error: unknown, streamName: string, expected: ExpectedRevision): unknown {
  const pgError = error as { code?: string; constraint?: string; detail?: string };
  if (pgError.code !== UNIQUE_VIOLATION) return error;
  if (pgError.constraint === 'es_events_event_id_key') {
    const id = /\(event_id\)=\(([^)]+)\)/.exec(pgError.detail ?? '')?.[1] ?? 'unknown';
    return new DuplicateEventError(id);
  }
  return new WrongExpectedRevisionError(streamName, expected, -1);
}
