import pg from 'pg';
import {
  type AppendOptions,
  type AppendResult,
  type Checkpoint,
  type EventStore,
  type EventToAppend,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../../../application/ports/event-store.js';
import { AppendNotifier } from './append-notifier.js';
import { appendInTransaction, categoryOf, readStreamRevision } from './append-in-transaction.js';
import { toAppendError } from './append-error.js';
import { CallsUnderWay } from './calls-under-way.js';
import { compareCheckpoints } from './checkpoint.js';
import { SESSION_TIMEOUT_OPTIONS } from '../../postgres/session-timeouts.js';
import { assertStoredTransactionIdsBehindServer, startNewOrderEpoch } from './order-epoch.js';
import { NotificationListener } from './notification-listener.js';
import { readAllEvents, readGlobalPage } from './read-global-page.js';
import { readHeadPosition } from './read-head-position.js';
import { readStreamEvents } from './read-stream.js';
import { EVENTS_CHANNEL, migrateEventStoreSchema } from './schema.js';
import { Subscribers } from './subscribers.js';

export interface PostgresEventStoreOptions {
  connectionString: string;
  poolSize?: number;
  /** How often a subscription looks again shortly after a notification (its event may still be hidden). Default 250 ms. */
  pollIntervalMs?: number;
  /**
   * How often an idle subscription looks for new events when no notification came for a while (an event hidden
   * behind a long transaction). Default 30 s.
   */
  idlePollMs?: number;
}

/** The default event store: events in PostgreSQL, in a global order that concurrent writers cannot break. */
export class PostgresEventStore implements EventStore {
  private readonly pool: pg.Pool;
  private readonly listener: NotificationListener;
  private readonly notifier: AppendNotifier;
  private readonly subscribers: Subscribers;
  /** Pool work not finished yet; close() lets it finish before ending the pool. */
  private readonly calls = new CallsUnderWay();
  private closing: Promise<void> | null = null;

  constructor(options: PostgresEventStoreOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 10,
      options: SESSION_TIMEOUT_OPTIONS,
    });
    // An idle client whose server goes away must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    this.listener = new NotificationListener(options.connectionString, EVENTS_CHANNEL);
    // A lost notification only delays readers until their next poll, so a failure to send one is not the append's.
    this.notifier = new AppendNotifier((categories) =>
      this.pool.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, categories]).then(
        () => undefined,
        () => undefined,
      ),
    );
    this.subscribers = new Subscribers(
      {
        readPage: (after, maxCount, filter) => this.track(() => readGlobalPage(this.pool, after, maxCount, filter)),
        news: this.listener,
      },
      options,
    );
  }

  /**
   * Creates the tables and index if they are missing; safe to run from
   * several processes at once. Then refuses to go on (TransactionIdsAheadError)
   * when the stored order cannot continue on this server's transaction ids.
   */
  migrate(): Promise<void> {
    return this.track(async () => {
      await migrateEventStoreSchema(this.pool);
      await assertStoredTransactionIdsBehindServer(this.pool);
    });
  }

  /** After a restore: new events sort after every stored one (see startNewOrderEpoch). */
  startNewOrderEpoch(): Promise<number> {
    return this.track(async () => {
      await migrateEventStoreSchema(this.pool);
      return startNewOrderEpoch(this.pool);
    });
  }

  appendToStream(streamName: string, events: readonly EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    return this.track(() => this.append(streamName, events, options));
  }

  private async append(
    streamName: string,
    events: readonly EventToAppend[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    const client = await this.pool.connect();
    // Checked out, a client has no listener of the pool's: a server lost mid-append would be an unhandled 'error' that
    // ends the process. The statement under way fails with it, and the pool drops the broken client on release.
    client.on('error', ignoreConnectionError);
    try {
      // Pinned: the revision check needs a snapshot taken after the stream lock is granted, which a server default of REPEATABLE READ would not give.
      await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      const result = await appendInTransaction(client, streamName, events, options.expectedRevision);
      await client.query('COMMIT');
      const category = categoryOf(streamName);
      // This process's subscriptions need no round trip through the server; the others hear the notification.
      this.listener.announce([category]);
      this.notifier.notify(category);
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw await toAppendError(error, streamName, options, () => readStreamRevision(this.pool, streamName));
    } finally {
      client.removeListener('error', ignoreConnectionError);
      client.release();
    }
  }

  readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return this.track(() => readStreamEvents(this.pool, streamName, options));
  }

  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.track(() => readAllEvents(this.pool, options));
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    return this.subscribers.subscribe(options);
  }

  compare(a: Checkpoint, b: Checkpoint): number {
    return compareCheckpoints(a, b);
  }

  headPosition(): Promise<Checkpoint | null> {
    return this.track(() => readHeadPosition(this.pool));
  }

  async ping(): Promise<boolean> {
    try {
      await this.track(() => this.pool.query('SELECT 1'));
      return true;
    } catch {
      return false;
    }
  }

  /** Ends open subscriptions, the listener and the pool. Calling it again waits for the first call. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const callsSettled = this.calls.close();
      await this.subscribers.closeAll();
      await this.listener.close();
      await callsSettled;
      await this.notifier.drain();
      await this.pool.end();
    })();
    return this.closing;
  }

  /** Runs pool work unless the store is closing (see CallsUnderWay). */
  private track<T>(work: () => Promise<T>): Promise<T> {
    return this.calls.run(work);
  }
}

function ignoreConnectionError(): void {
  // The failed statement reports it.
}
