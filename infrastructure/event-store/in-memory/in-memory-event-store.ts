import { EventEmitter } from 'node:events';
import {
  type AppendOptions,
  type AppendResult,
  type Checkpoint,
  DuplicateEventError,
  type EventFilter,
  type EventStore,
  type EventToAppend,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevisionError,
} from '../../../application/ports/event-store.js';
import { matchesFilter } from '../matches-filter.js';

/** Events in this process's memory: for fast tests and a future embedded mode. Appends are atomic because they are synchronous. */
export class InMemoryEventStore implements EventStore {
  private readonly all: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly ids = new Set<string>();
  private readonly appended = new EventEmitter().setMaxListeners(0);
  private closed = false;

  async appendToStream(streamName: string, events: readonly EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    const stream = this.streams.get(streamName) ?? [];
    const actual = stream.length - 1;
    const expected = options.expectedRevision;
    const matches = expected === 'any' || (expected === 'no_stream' ? actual === -1 : expected === 'stream_exists' ? actual >= 0 : expected === actual);
    if (!matches) throw new WrongExpectedRevisionError(streamName, expected, actual);
    const duplicate = events.find((event) => this.ids.has(event.id));
    if (duplicate !== undefined) throw new DuplicateEventError(duplicate.id);
    const createdAt = new Date();
    const recorded = events.map((event, index): RecordedEvent => ({
      id: event.id,
      type: event.type,
      streamName,
      revision: actual + 1 + index,
      position: String(this.all.length + index + 1),
      data: structuredClone(event.data),
      metadata: structuredClone(event.metadata ?? {}),
      createdAt,
    }));
    for (const event of recorded) this.ids.add(event.id);
    this.all.push(...recorded);
    this.streams.set(streamName, [...stream, ...recorded]);
    this.appended.emit('appended');
    return { nextExpectedRevision: actual + events.length, position: recorded[recorded.length - 1].position };
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const stream = this.streams.get(streamName) ?? [];
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? (backwards ? Number.MAX_SAFE_INTEGER : 0);
    const selected = backwards ? stream.filter((event) => event.revision <= from).reverse() : stream.filter((event) => event.revision >= from);
    return selected.slice(0, options.maxCount ?? selected.length);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.scan(options.after ?? null, options.filter, options.maxCount ?? 1000).events;
  }

  /** Synchronous, so `scannedTo` is exact: no append can slip between the scan and its end. */
  private scan(after: Checkpoint | null, filter: EventFilter | undefined, limit: number): { events: RecordedEvent[]; scannedTo: Checkpoint | null } {
    const events: RecordedEvent[] = [];
    let index = after === null ? 0 : Number(after);
    for (; index < this.all.length && events.length < limit; index += 1) {
      if (matchesFilter(this.all[index], filter)) events.push(this.all[index]);
    }
    return { events, scannedTo: index === 0 ? after : String(index) };
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const stop = new AbortController();
    const store = this;
    return {
      async *[Symbol.asyncIterator]() {
        let after: Checkpoint | null = options.after ?? null;
        while (!stop.signal.aborted && !store.closed) {
          const { events, scannedTo } = store.scan(after, options.filter, options.batchSize ?? 100);
          if (events.length > 0) {
            after = events[events.length - 1].position;
            yield events;
            continue;
          }
          after = scannedTo;
          await new Promise<void>((resolve) => {
            const wake = () => {
              store.appended.off('appended', wake);
              stop.signal.removeEventListener('abort', wake);
              resolve();
            };
            store.appended.on('appended', wake);
            stop.signal.addEventListener('abort', wake);
          });
        }
      },
      async close() {
        stop.abort();
      },
    };
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.appended.emit('appended');
  }
}

