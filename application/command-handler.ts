import type { Decider, DomainEvent } from '../domain/decider.js';
import { foldEvents } from '../domain/decider.js';
import { streamName } from '../domain/stream-name.js';
import type { EventMetadata, EventStore } from './ports/event-store.js';
import { WrongExpectedRevisionError } from './ports/event-store.js';
import type { IdGenerator } from './ports/id-generator.js';
import { KeyedMutex } from './keyed-mutex.js';

export interface CommandContext {
  correlationId?: string;
  causationId?: string;
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
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
  ) {}

  async load(id: string): Promise<{ state: State; revision: number }> {
    const recorded = await this.store.readStream(streamName(this.category, id));
    const events = recorded.map((event) => ({ type: event.type, data: event.data }) as unknown as Event);
    return { state: foldEvents(this.decider, events), revision: recorded.length === 0 ? -1 : recorded[recorded.length - 1].revision };
  }

  handle(id: string, command: Command, context: CommandContext = {}): Promise<CommandResult<Event, State>> {
    return this.mutex.run(id, () => this.handleWithRetries(id, command, context));
  }

  private async handleWithRetries(id: string, command: Command, context: CommandContext): Promise<CommandResult<Event, State>> {
    const stream = streamName(this.category, id);
    for (let attempt = 0; ; attempt += 1) {
      const { state, revision } = await this.load(id);
      const events = this.decider.decide(command, state);
      if (events.length === 0) return { events, state, revision };
      const metadata: EventMetadata = {
        correlationId: context.correlationId ?? this.ids.next(),
        ...(context.causationId === undefined ? {} : { causationId: context.causationId }),
        commandType: command.type,
      };
      try {
        const result = await this.store.appendToStream(
          stream,
          events.map((event) => ({ id: this.ids.next(), type: event.type, data: event.data as Record<string, unknown>, metadata })),
          { expectedRevision: revision < 0 ? 'no_stream' : revision },
        );
        return { events, state: events.reduce((s, e) => this.decider.evolve(s, e), state), revision: result.nextExpectedRevision };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= this.retry.maxRetries) throw error;
        await sleep(backoff(this.retry, attempt));
      }
    }
  }
}

function backoff(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
  // Full jitter: competing processes spread out instead of colliding again in step.
  return Math.random() * ceiling;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
