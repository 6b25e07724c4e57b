import { createHash } from 'node:crypto';
import type { Decider, DomainEvent } from '../domain/decider.js';
import { streamName } from '../domain/stream-name.js';
import type { EventMetadata, EventStore } from './ports/event-store.js';
import { WrongExpectedRevisionError } from './ports/event-store.js';
import type { IdGenerator } from './ports/id-generator.js';
import type { SnapshotStore, StreamSnapshot } from './ports/snapshot-store.js';
import { KeyedMutex } from './keyed-mutex.js';

export interface CommandContext {
  correlationId?: string;
  causationId?: string;
  /** Who asked, when someone did: `operator:<tokenId>`, `cli`, `key:<keyId>`; kept in the events' metadata for the audit trail. */
  actor?: string;
  /**
   * Derives the events' ids from this seed instead of drawing them: a retried request (an admin write under the same
   * Idempotency-Key) that reaches the store again after its first attempt was written is refused as a duplicate.
   */
  eventIdSeed?: string;
}

export interface CommandResult<Event, State> {
  events: Event[];
  state: State;
  /** Revision of the stream's last event after the command; -1 when the stream is still empty. */
  revision: number;
}

export interface RetryPolicy {
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

const DEFAULT_RETRY: RetryPolicy = { maxRetries: 30, initialDelayMs: 5, maxDelayMs: 250 };

/** For streams that never end (accounts): fold from a stored state instead of from the first event. */
export interface SnapshotPolicy {
  store: SnapshotStore;
  /** The decider's state version; see ACCOUNT_STATE_VERSION. */
  version: number;
  /** A load that folds at least this many events stores the state it reached. */
  afterEvents: number;
  /** A snapshot that cannot be read or stored is only reported: the fold from the start stays correct. */
  onError: (error: unknown, streamName: string) => void;
}

export interface CommandHandlerOptions {
  retry?: RetryPolicy;
  snapshots?: SnapshotPolicy;
  /** Told the id of each stream this handler appended to, once the append returns, before its caller hears of it. */
  appended?: (id: string) => void;
}

/**
 * Load the stream, decide, append at the revision that was read; on a
 * concurrent change, read again and decide again, since the decision may differ.
 */
export class CommandHandler<Command extends { type: string }, Event extends DomainEvent, State> {
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly store: EventStore,
    private readonly decider: Decider<Command, Event, State>,
    private readonly category: string,
    private readonly ids: IdGenerator,
    private readonly options: CommandHandlerOptions = {},
  ) {}

  private get retry(): RetryPolicy {
    return this.options.retry ?? DEFAULT_RETRY;
  }

  async load(id: string): Promise<{ state: State; revision: number }> {
    const stream = streamName(this.category, id);
    const snapshot = await this.readSnapshot(stream);
    // Read from the snapshot's own event: finding it there proves the snapshot belongs to this history.
    const recorded = snapshot === null ? [] : await this.store.readStream(stream, { fromRevision: snapshot.revision });
    const fromSnapshot =
      snapshot !== null && recorded[0]?.id === snapshot.lastEventId && recorded[0].revision === snapshot.revision;
    const toFold = fromSnapshot ? recorded.slice(1) : await this.store.readStream(stream);
    let state = fromSnapshot ? (snapshot.state as State) : this.decider.initialState();
    for (const event of toFold)
      state = this.decider.evolve(state, { type: event.type, data: event.data } as unknown as Event);
    const last = toFold.at(-1);
    const revision = last?.revision ?? (fromSnapshot ? snapshot.revision : -1);
    const policy = this.options.snapshots;
    if (policy !== undefined && last !== undefined && toFold.length >= policy.afterEvents) {
      await this.writeSnapshot(policy, {
        streamName: stream,
        revision,
        lastEventId: last.id,
        version: policy.version,
        state,
      });
    }
    return { state, revision };
  }

  private async readSnapshot(stream: string): Promise<StreamSnapshot | null> {
    const policy = this.options.snapshots;
    if (policy === undefined) return null;
    try {
      const snapshot = await policy.store.load(stream);
      return snapshot?.version === policy.version ? snapshot : null;
    } catch (error) {
      policy.onError(error, stream);
      return null;
    }
  }

  private async writeSnapshot(policy: SnapshotPolicy, snapshot: StreamSnapshot): Promise<void> {
    try {
      await policy.store.save(snapshot);
    } catch (error) {
      policy.onError(error, snapshot.streamName);
    }
  }

  handle(id: string, command: Command, context: CommandContext = {}): Promise<CommandResult<Event, State>> {
    return this.mutex.run(id, () => this.handleWithRetries(id, command, context));
  }

  private async handleWithRetries(
    id: string,
    command: Command,
    context: CommandContext,
  ): Promise<CommandResult<Event, State>> {
    const stream = streamName(this.category, id);
    for (let attempt = 0; ; attempt += 1) {
      const { state, revision } = await this.load(id);
      const events = this.decider.decide(command, state);
      if (events.length === 0) return { events, state, revision };
      const metadata: EventMetadata = {
        correlationId: context.correlationId ?? this.ids.next(),
        ...(context.causationId === undefined ? {} : { causationId: context.causationId }),
        ...(context.actor === undefined ? {} : { actor: context.actor }),
        commandType: command.type,
      };
      try {
        const result = await this.store.appendToStream(
          stream,
          events.map((event, index) => ({
            id: context.eventIdSeed === undefined ? this.ids.next() : seededEventId(context.eventIdSeed, index),
            type: event.type,
            data: event.data as Record<string, unknown>,
            metadata,
          })),
          { expectedRevision: revision < 0 ? 'no_stream' : revision },
        );
        this.options.appended?.(id);
        return {
          events,
          state: events.reduce((s, e) => this.decider.evolve(s, e), state),
          revision: result.nextExpectedRevision,
        };
      } catch (error) {
        // An append that failed otherwise may still have been written.
        if (!(error instanceof WrongExpectedRevisionError)) this.options.appended?.(id);
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= this.retry.maxRetries) throw error;
        await sleep(backoff(this.retry, attempt));
      }
    }
  }
}

/** A uuid (version 8, RFC 9562's custom form) from a hash of the seed and the event's place in the append. */
function seededEventId(seed: string, index: number): string {
  const hex = createHash('sha256').update(`${seed}#${index}`).digest('hex');
  const variant = ((Number.parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function backoff(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
  // Full jitter: competing processes spread out instead of colliding again in step.
  return Math.random() * ceiling;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
