import { EventEmitter } from 'node:events';
import {
  type AppendOptions,
  type AppendResult,
  type Checkpoint,
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
  type SubscriptionPage,
  WrongExpectedRevisionError,
} from '../../../application/ports/event-store.js';
import { repeatedAppendResult } from '../idempotent-append.js';
import { matchesFilter } from '../matches-filter.js';

const DEFAULT_READ_ALL_COUNT = 1000;
const DEFAULT_BATCH_SIZE = 100;

/**
 * Events in this process's memory, with the PostgreSQL store's semantics: for
 * fast tests and a future embedded mode. Each append runs without awaiting,
 * so it is atomic and appends are totally ordered. Events are copied in and
 * out, so callers can no more change what is stored than they could in a
 * database.
 */
export class InMemoryEventStore implements EventStore {
  /** The global order; an event's position is its index here plus one, so "0" would mean "before everything". */
  private readonly log: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly eventsById = new Map<string, RecordedEvent>();
  private readonly changes = new EventEmitter().setMaxListeners(0);
  private closed = false;

  async appendToStream(
    streamName: string,
    events: readonly EventToAppend[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    this.assertOpen();
    if (events.length === 0) throw new Error('appendToStream needs at least one event');
    const stream = this.streams.get(streamName) ?? [];
    const actual = stream.length - 1;
    const stored = events.flatMap((event) => {
      const found = this.eventsById.get(event.id);
      return found === undefined
        ? []
        : [{ id: found.id, streamName: found.streamName, revision: found.revision, position: found.position }];
    });
    const repeated = repeatedAppendResult(streamName, events, options.expectedRevision, stored);
    if (repeated !== null) return repeated;
    if (!matchesExpectedRevision(options.expectedRevision, actual)) {
      throw new WrongExpectedRevisionError(streamName, options.expectedRevision, actual);
    }
    const idsInBatch = new Set<string>();
    for (const event of events) {
      if (idsInBatch.has(event.id)) throw new DuplicateEventError(event.id);
      idsInBatch.add(event.id);
    }
    const createdAt = new Date();
    const recorded = events.map(
      (event, index): RecordedEvent => ({
        id: event.id,
        type: event.type,
        streamName,
        revision: actual + 1 + index,
        position: String(this.log.length + index + 1),
        data: structuredClone(event.data),
        metadata: structuredClone(event.metadata ?? {}),
        createdAt,
      }),
    );
    for (const event of recorded) this.eventsById.set(event.id, event);
    this.log.push(...recorded);
    this.streams.set(streamName, [...stream, ...recorded]);
    this.changes.emit('change');
    return { nextExpectedRevision: actual + events.length, position: recorded[recorded.length - 1].position };
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const stream = this.streams.get(streamName) ?? [];
    const selected =
      options.direction === 'backwards'
        ? stream.filter((event) => event.revision <= (options.fromRevision ?? Number.MAX_SAFE_INTEGER)).reverse()
        : stream.filter((event) => event.revision >= (options.fromRevision ?? 0));
    return selected.slice(0, options.maxCount ?? selected.length).map(copyOf);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.scan(options.after ?? null, options.filter, options.maxCount ?? DEFAULT_READ_ALL_COUNT).events;
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const stopped = new AbortController();
    const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
    const store = this;
    return {
      async *[Symbol.asyncIterator](): AsyncGenerator<SubscriptionPage> {
        let after = options.after ?? null;
        while (!stopped.signal.aborted && !store.closed) {
          const { events, scannedTo } = store.scan(after, options.filter, batchSize);
          const moved = scannedTo !== after;
          after = scannedTo;
          // After a yield, scan again: appends made while the consumer held the page woke nobody.
          if (scannedTo !== null && (events.length > 0 || moved)) yield { events, scannedTo };
          else await store.nextChange(stopped.signal);
        }
      },
      async close() {
        stopped.abort();
      },
    };
  }

  compare(a: Checkpoint, b: Checkpoint): number {
    return decodePosition(a) - decodePosition(b);
  }

  async headPosition(): Promise<Checkpoint | null> {
    this.assertOpen();
    return this.log.length === 0 ? null : String(this.log.length);
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.changes.emit('change');
  }

  /**
   * Synchronous, so `scannedTo` is exact: no append can slip in between. A
   * filtered subscription resumes from there rather than from its last match.
   */
  private scan(
    after: Checkpoint | null,
    filter: EventFilter | undefined,
    limit: number,
  ): { events: RecordedEvent[]; scannedTo: Checkpoint | null } {
    const events: RecordedEvent[] = [];
    let index = after === null ? 0 : decodePosition(after);
    for (; index < this.log.length && events.length < limit; index += 1) {
      if (matchesFilter(this.log[index], filter)) events.push(copyOf(this.log[index]));
    }
    return { events, scannedTo: index === 0 ? after : String(index) };
  }

  private nextChange(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.changes.off('change', wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      this.changes.on('change', wake);
      signal.addEventListener('abort', wake);
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The event store is closed');
  }
}

function matchesExpectedRevision(expected: ExpectedRevision, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === -1;
  if (expected === 'stream_exists') return actual >= 0;
  return expected === actual;
}

function decodePosition(checkpoint: Checkpoint): number {
  if (!/^\d+$/.test(checkpoint)) throw new Error(`Not an in-memory event store checkpoint: ${checkpoint}`);
  return Number(checkpoint);
}

function copyOf(event: RecordedEvent): RecordedEvent {
  return structuredClone(event);
}
