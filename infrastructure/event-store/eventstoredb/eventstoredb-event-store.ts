import {
  ANY,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  type Filter,
  NO_STREAM,
  type Position,
  type ResolvedEvent,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
} from '@eventstore/db-client';
import {
  type AppendOptions,
  type AppendResult,
  type Checkpoint,
  type EventFilter,
  type EventMetadata,
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
import { matchesFilter } from '../matches-filter.js';
import { toEsdbConnectionString } from './connection-string.js';

const DEFAULT_READ_ALL_COUNT = 1000;
/** $all holds system events too, so a filtered read may need several pages to fill up. */
const READ_ALL_PAGE_SIZE = 500;
const PING_DEADLINE_MS = 3000;

/**
 * The event store port on EventStoreDB. Revisions are the server's bigints as
 * numbers; checkpoints are `<commit>/<prepare>` positions in $all.
 *
 * The server treats an append that repeats already written event ids as an
 * idempotent retry and acknowledges it without writing anything, so this
 * adapter never raises DuplicateEventError: a repeated append is a no-op.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<EventStoreDbSubscription>();
  private closed = false;

  constructor(options: { url: string }) {
    this.client = EventStoreDBClient.connectionString(toEsdbConnectionString(options.url));
  }

  async appendToStream(
    streamName: string,
    events: readonly EventToAppend[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    try {
      const result = await this.client.appendToStream(
        streamName,
        events.map((event) =>
          jsonEvent({ id: event.id, type: event.type, data: event.data, metadata: event.metadata ?? {} }),
        ),
        { expectedRevision: toExpectedRevision(options.expectedRevision) },
      );
      return {
        nextExpectedRevision: Number(result.nextExpectedRevision),
        // Servers older than 22.6 leave the position out of the append result.
        position: result.position === undefined ? '' : encodePosition(result.position),
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = typeof error.actualVersion === 'bigint' ? Number(error.actualVersion) : -1;
        throw new WrongExpectedRevisionError(streamName, options.expectedRevision, actual);
      }
      throw error;
    }
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    if (options.maxCount !== undefined && options.maxCount <= 0) return [];
    const backwards = options.direction === 'backwards';
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamName, {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision: options.fromRevision !== undefined ? BigInt(options.fromRevision) : backwards ? END : START,
        ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
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
    const limit = options.maxCount ?? DEFAULT_READ_ALL_COUNT;
    const events: RecordedEvent[] = [];
    if (limit <= 0) return events;
    let after = options.after == null ? null : decodePosition(options.after);
    for (;;) {
      let seen = 0;
      // A forwards read of $all includes the event at its start position.
      const read = this.client.readAll({
        direction: FORWARDS,
        fromPosition: after ?? START,
        maxCount: READ_ALL_PAGE_SIZE,
      });
      for await (const resolved of read) {
        seen += 1;
        const position = positionOf(resolved);
        if (position === undefined || (after !== null && comparePositions(position, after) <= 0)) continue;
        after = position;
        const event = toRecordedEvent(resolved);
        if (event !== null && matchesFilter(event, options.filter)) events.push(event);
        if (events.length >= limit) return events;
      }
      if (seen < READ_ALL_PAGE_SIZE) return events;
    }
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const checkpoints = new CheckpointQueue();
    const source = this.client.subscribeToAll({
      fromPosition: options.after == null ? START : decodePosition(options.after),
      filter: serverFilter(options.filter, (position) => checkpoints.push(position)),
    });
    const subscription = new EventStoreDbSubscription(
      source,
      options.after ?? null,
      options.filter,
      checkpoints,
      () => {
        this.subscriptions.delete(subscription);
      },
    );
    this.subscriptions.add(subscription);
    if (this.closed) void subscription.close();
    return subscription;
  }

  compare(a: Checkpoint, b: Checkpoint): number {
    return comparePositions(decodePosition(a), decodePosition(b));
  }

  /** The last event outside the server's own ($) streams. */
  async headPosition(): Promise<Checkpoint | null> {
    for await (const resolved of this.client.readAll({
      direction: BACKWARDS,
      fromPosition: END,
      maxCount: READ_ALL_PAGE_SIZE,
    })) {
      const event = toRecordedEvent(resolved);
      if (event !== null) return event.position;
    }
    return null;
  }

  async ping(): Promise<boolean> {
    if (this.closed) return false;
    try {
      for await (const _ of this.client.readAll({ maxCount: 1, deadline: PING_DEADLINE_MS })) break;
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.client.dispose();
  }
}

/**
 * The server's filtered-subscription checkpoints (positions it has searched
 * up to), waiting to be reported as pages without events.
 */
class CheckpointQueue {
  private readonly positions: Position[] = [];
  private wake: (() => void) | null = null;

  push(position: Position): void {
    this.positions.push(position);
    this.wake?.();
  }

  take(): Position | undefined {
    return this.positions.shift();
  }

  next(): Promise<'checkpoint'> {
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = null;
        resolve('checkpoint');
      };
    });
  }
}

/**
 * Yields one event per page: the client delivers events one at a time and
 * holding them back to fill a page would delay live delivery.
 */
class EventStoreDbSubscription implements Subscription {
  private closed = false;
  private readonly after: Position | null;
  private signalClosed!: () => void;
  private readonly whenClosed = new Promise<'closed'>((resolve) => {
    this.signalClosed = () => resolve('closed');
  });

  constructor(
    private readonly source: AllStreamSubscription,
    after: Checkpoint | null,
    private readonly filter: EventFilter | undefined,
    private readonly checkpoints: CheckpointQueue,
    private readonly onClose: () => void,
  ) {
    this.after = after === null ? null : decodePosition(after);
    // Errors surface through iteration; an unobserved one must not crash the process.
    source.on('error', () => undefined);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SubscriptionPage> {
    const iterator = this.source[Symbol.asyncIterator]();
    let scanned = this.after;
    const isNew = (position: Position | undefined): position is Position =>
      position !== undefined && (scanned === null || comparePositions(position, scanned) > 0);
    try {
      let pending: ReturnType<typeof iterator.next> | null = null;
      while (!this.closed) {
        const checkpoint = this.checkpoints.take();
        if (checkpoint !== undefined) {
          if (isNew(checkpoint)) {
            scanned = checkpoint;
            yield { events: [], scannedTo: encodePosition(checkpoint) };
          }
          continue;
        }
        if (pending === null) {
          pending = iterator.next();
          // Once closed, the pending read may still settle with the cancellation.
          pending.catch(() => undefined);
        }
        const next = await Promise.race([pending, this.whenClosed, this.checkpoints.next()]);
        if (next === 'checkpoint') continue;
        pending = null;
        if (next === 'closed' || next.done === true) return;
        const resolved = next.value as AllStreamResolvedEvent;
        const position = positionOf(resolved);
        // Subscribing from a position is meant to be exclusive; this guards against servers that include it.
        if (!isNew(position)) continue;
        scanned = position;
        const event = toRecordedEvent(resolved);
        const events = event !== null && matchesFilter(event, this.filter) ? [event] : [];
        yield { events, scannedTo: encodePosition(position) };
      }
    } catch (error) {
      if (!this.closed) throw error;
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.signalClosed();
    this.onClose();
    await this.source.unsubscribe().catch(() => undefined);
  }
}

/**
 * Narrows the subscription on the server where the port's filter allows it;
 * matchesFilter still decides exactly, since the server matches prefixes only.
 */
function serverFilter(filter: EventFilter | undefined, onCheckpoint: (position: Position) => void): Filter {
  const checkpointReached = (_subscription: unknown, position: Position) => onCheckpoint(position);
  if (filter?.streamPrefixes !== undefined && filter.streamPrefixes.length > 0) {
    return streamNameFilter({ prefixes: [...filter.streamPrefixes], checkpointReached });
  }
  if (filter?.eventTypes !== undefined && filter.eventTypes.length > 0) {
    return eventTypeFilter({ prefixes: [...filter.eventTypes], checkpointReached });
  }
  return excludeSystemEvents({ checkpointReached });
}

function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return BigInt(expected);
}

function positionOf(resolved: ResolvedEvent | AllStreamResolvedEvent): Position | undefined {
  const position = resolved.event?.position ?? resolved.link?.position;
  if (position !== undefined) return position;
  return resolved.commitPosition === undefined
    ? undefined
    : { commit: resolved.commitPosition, prepare: resolved.commitPosition };
}

function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (event === undefined || event.type.startsWith('$') || event.streamId.startsWith('$')) return null;
  const position = positionOf(resolved);
  return {
    id: event.id,
    type: event.type,
    streamName: event.streamId,
    revision: Number(event.revision),
    position: position === undefined ? '' : encodePosition(position),
    data: asObject(event.data),
    metadata: asObject(event.metadata) as EventMetadata,
    createdAt: event.created,
  };
}

/** Events written by other tools may carry binary or non-object payloads. */
function asObject(value: unknown): Record<string, unknown> {
  if (value instanceof Uint8Array) {
    if (value.length === 0) return {};
    try {
      return asObject(JSON.parse(Buffer.from(value).toString('utf8')));
    } catch {
      return {};
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

function encodePosition(position: Position): Checkpoint {
  return `${position.commit}/${position.prepare}`;
}

function decodePosition(checkpoint: Checkpoint): Position {
  const match = /^(\d+)\/(\d+)$/.exec(checkpoint);
  if (match === null) throw new Error(`Not an EventStoreDB checkpoint: ${checkpoint}`);
  return { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
}
