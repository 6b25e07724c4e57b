import {
  ANY,
  type AppendExpectedRevision,
  BACKWARDS,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  type Position,
  type ResolvedEvent,
  streamNameFilter,
} from '@eventstore/db-client';
import {
  type AppendOptions,
  type AppendResult,
  type Checkpoint,
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
import { matchesFilter } from '../matches-filter.js';
import { toEsdbConnectionString } from './connection-string.js';

/**
 * The event store port on EventStoreDB. Revisions are the server's, as
 * numbers; checkpoints are `<commit>/<prepare>` positions in $all. A retried
 * append with the same event ids is idempotent on the server, so this adapter
 * never reports DuplicateEventError: repeating an append is simply a no-op.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;

  constructor(options: { url: string }) {
    this.client = EventStoreDBClient.connectionString(toEsdbConnectionString(options.url));
  }

  async appendToStream(streamName: string, events: readonly EventToAppend[], options: AppendOptions): Promise<AppendResult> {
    try {
      const result = await this.client.appendToStream(
        streamName,
        events.map((event) => jsonEvent({ id: event.id, type: event.type, data: event.data as never, metadata: event.metadata ?? {} })),
        { expectedRevision: toExpectedRevision(options.expectedRevision) },
      );
      const position = result.position ?? { commit: 0n, prepare: 0n };
      return { nextExpectedRevision: Number(result.nextExpectedRevision), position: encodePosition(position) };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion === NO_STREAM || typeof error.actualVersion !== 'bigint' ? -1 : Number(error.actualVersion);
        throw new WrongExpectedRevisionError(streamName, options.expectedRevision, actual);
      }
      throw error;
    }
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamName, {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision: options.fromRevision === undefined ? (backwards ? 'end' : START) : BigInt(options.fromRevision),
        maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
      });
      for await (const resolved of read) {
        const event = toRecordedEvent(resolved);
        if (event !== null) events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? 1000;
    const events: RecordedEvent[] = [];
    const read = this.client.readAll({ fromPosition: options.after == null ? START : decodePosition(options.after), direction: FORWARDS, maxCount: Number.MAX_SAFE_INTEGER });
    for await (const resolved of read) {
      const event = toRecordedEvent(resolved);
      // The read starts at the checkpoint itself, which was already handled.
      if (event === null || event.position === options.after || !matchesFilter(event, options.filter)) continue;
      events.push(event);
      if (events.length >= limit) break;
    }
    return events;
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const prefixes = options.filter?.streamPrefixes;
    const subscription = this.client.subscribeToAll({
      fromPosition: options.after == null ? START : decodePosition(options.after),
      ...(prefixes !== undefined ? { filter: streamNameFilter({ prefixes: [...prefixes] }) } : {}),
    });
    const filter = options.filter;
    const after = options.after ?? null;
    return {
      async *[Symbol.asyncIterator]() {
        for await (const resolved of subscription) {
          const event = toRecordedEvent(resolved as ResolvedEvent);
          if (event === null || event.position === after || !matchesFilter(event, filter)) continue;
          yield [event];
        }
      },
      async close() {
        await subscription.unsubscribe();
      },
    };
  }

  async ping(): Promise<boolean> {
    try {
      for await (const _ of this.client.readAll({ maxCount: 1 })) break;
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}

function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return BigInt(expected);
}

function toRecordedEvent(resolved: ResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (event === undefined || event.type.startsWith('$') || event.streamId.startsWith('$')) return null;
  const position = (event as { position?: Position }).position ?? { commit: resolved.commitPosition ?? 0n, prepare: resolved.commitPosition ?? 0n };
  return {
    id: event.id,
    type: event.type,
    streamName: event.streamId,
    revision: Number(event.revision),
    position: encodePosition(position),
    data: (event.data ?? {}) as Record<string, unknown>,
    metadata: (event.metadata ?? {}) as Record<string, unknown>,
    createdAt: event.created,
  };
}


function encodePosition(position: Position): Checkpoint {
  return `${position.commit}/${position.prepare}`;
}

function decodePosition(checkpoint: Checkpoint): Position {
  const match = /^(\d+)\/(\d+)$/.exec(checkpoint);
  if (match === null) throw new Error(`Not an EventStoreDB checkpoint: ${checkpoint}`);
  return { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
}
