/**
 * The event store port, with EventStoreDB's semantics so that both adapters answer alike: 0-based stream revisions (a
 * missing stream has none); `expectedRevision` is 'any', 'no_stream', 'stream_exists' or the last event's revision;
 * a mismatch raises WrongExpectedRevisionError. Global positions (`Checkpoint`) are opaque, adapter-specific strings
 * that only the store orders (`compare`): a reader stores the one it has scanned to and resumes after it.
 */

export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

/** Opaque and adapter-specific; order them with EventStore.compare, persist as text. */
export type Checkpoint = string;

export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  commandType?: string;
  [key: string]: unknown;
}

export interface EventToAppend {
  /** uuid, unique in the store: see EventStore.appendToStream for what reusing one does. */
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata?: EventMetadata;
}

export interface RecordedEvent {
  id: string;
  type: string;
  streamName: string;
  revision: number;
  position: Checkpoint;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  createdAt: Date;
}

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last event written: pass it as the next expectedRevision. */
  nextExpectedRevision: number;
  position: Checkpoint;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive. Forwards defaults to 0, backwards to the stream's end. */
  fromRevision?: number;
  maxCount?: number;
}

export interface EventFilter {
  eventTypes?: readonly string[];
  /** Stream name prefixes, e.g. `account-`. */
  streamPrefixes?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive; null or absent reads from the beginning. */
  after?: Checkpoint | null;
  maxCount?: number;
  filter?: EventFilter;
}

export interface SubscribeOptions {
  after?: Checkpoint | null;
  filter?: EventFilter;
  /** Events read per round trip while catching up. */
  batchSize?: number;
}

/**
 * One step of a subscription. `scannedTo` is where it has read up to: every
 * event matching the filter at or before it is in this page or an earlier
 * one, so a reader that stores it resumes there without scanning the skipped
 * events again. A page without events only reports that the scan moved on.
 */
export interface SubscriptionPage {
  events: RecordedEvent[];
  scannedTo: Checkpoint;
}

/**
 * Catches up from `after`, then follows new events live, in global order.
 * Iterating yields pages, each either with events or with a `scannedTo` that
 * moved; `close()` ends the iteration.
 */
export interface Subscription extends AsyncIterable<SubscriptionPage> {
  close(): Promise<void>;
  /** Reads again now rather than at the next poll: for a caller waiting on this subscription's position. */
  nudge?(): void;
}

export interface EventStore {
  /**
   * Appends in one go, or not at all. Event ids follow EventStoreDB's
   * idempotent append: when every id is already stored as this stream's
   * events right after the expected revision, in the same order (so the
   * append is a retry of one that succeeded), nothing is written and the first
   * append's result is returned; with 'any' or 'stream_exists' they may be
   * anywhere in the stream. Any other use of a stored id fails with
   * DuplicateEventError. (EventStoreDB itself only guarantees the first part:
   * its server may accept a stored id again elsewhere.)
   */
  appendToStream(streamName: string, events: readonly EventToAppend[], options: AppendOptions): Promise<AppendResult>;
  /** A stream that does not exist reads as []. */
  readStream(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeOptions): Subscription;
  /** Negative, zero or positive as `a` comes before, at or after `b` in the global order. */
  compare(a: Checkpoint, b: Checkpoint): number;
  /**
   * The position of the last event committed so far (null for an empty
   * store): everything a caller appended before asking is at or before it.
   */
  headPosition(): Promise<Checkpoint | null>;
  /** True when the store answers; used by readiness checks. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    /** -1 when the stream does not exist. */
    readonly actual: number,
  ) {
    super(`Stream ${streamName}: expected revision ${String(expected)}, actual ${actual}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export class DuplicateEventError extends Error {
  constructor(readonly eventId: string) {
    super(`Event ${eventId} is already stored`);
    this.name = 'DuplicateEventError';
  }
}
