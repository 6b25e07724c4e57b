import { randomBytes } from 'node:crypto';
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
  SubscriptionPage,
} from '../../../application/ports/event-store.js';
import { holdsPersonalData, mapPersonalFields } from '../../../domain/personal-data/personal-fields.js';
import type { AccountDataKeys } from '../../security/personal-data/account-data-keys.js';
import { erasedMarker, isSealed } from '../../security/personal-data/personal-data-cipher.js';

/**
 * The event store as the rest of the service sees it: personal fields (see PERSONAL_FIELDS) are sealed with their
 * account's data key on the way in and opened on the way out; once the key is destroyed they read as erased markers.
 * Everything else passes through, so positions, revisions, ids and amounts are the inner store's own.
 */
export class SealingEventStore implements EventStore {
  constructor(
    /** The store itself, for what only an adapter knows (its connections, in tests). */
    readonly inner: EventStore,
    private readonly keys: AccountDataKeys,
  ) {}

  async appendToStream(
    streamName: string,
    events: readonly EventToAppend[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    const sealed = await Promise.all(events.map((event) => this.seal(event)));
    return this.inner.appendToStream(streamName, sealed, options);
  }

  async readStream(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.openAll(await this.inner.readStream(streamName, options));
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.openAll(await this.inner.readAll(options));
  }

  subscribeToAll(options?: SubscribeOptions): Subscription {
    const inner = this.inner.subscribeToAll(options);
    const openAll = (events: RecordedEvent[]) => this.openAll(events);
    return {
      close: () => inner.close(),
      nudge: inner.nudge === undefined ? undefined : () => inner.nudge?.(),
      async *[Symbol.asyncIterator](): AsyncIterator<SubscriptionPage> {
        for await (const page of inner) yield { events: await openAll(page.events), scannedTo: page.scannedTo };
      },
    };
  }

  compare(a: Checkpoint, b: Checkpoint): number {
    return this.inner.compare(a, b);
  }

  headPosition(): Promise<Checkpoint | null> {
    return this.inner.headPosition();
  }

  ping(): Promise<boolean> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async seal(event: EventToAppend): Promise<EventToAppend> {
    const accountId = accountOf(event);
    if (accountId === null) return event;
    const cipher = await this.keys.forSealing(accountId);
    // Written after the erasure (a job still settling): nothing readable is kept, and nothing can be matched either.
    const change =
      cipher === 'erased'
        ? () => erasedMarker(randomBytes(16).toString('hex'))
        : (value: unknown) => cipher.seal(value);
    return { ...event, data: mapPersonalFields(event.type, event.data, change) };
  }

  private openAll(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    return Promise.all(events.map((event) => this.open(event)));
  }

  private async open(event: RecordedEvent): Promise<RecordedEvent> {
    const accountId = accountOf(event);
    if (accountId === null) return event;
    let cipher = await this.keys.forOpening(accountId);
    if (cipher === null) {
      if (!holdsSealedValue(event)) return event;
      // Sealed since the lookup that found no key (by another process): look again. Still none: the key is lost.
      cipher = (await this.keys.forOpening(accountId, true)) ?? 'erased';
    }
    // Once erased, a value written before sealing began reads as erased too, though its text stays until sealed in place.
    const change =
      cipher === 'erased'
        ? (value: unknown) => erasedMarker(isSealed(value) ? value : JSON.stringify(value))
        : (value: unknown) => cipher.open(value);
    return { ...event, data: mapPersonalFields(event.type, event.data, change) };
  }
}

/** The account whose key seals the event's personal fields; null for events that hold none. */
function accountOf(event: { type: string; data: Record<string, unknown> }): string | null {
  if (!holdsPersonalData(event.type)) return null;
  const accountId = event.data.accountId;
  return typeof accountId === 'string' ? accountId : null;
}

function holdsSealedValue(event: RecordedEvent): boolean {
  let sealed = false;
  mapPersonalFields(event.type, event.data, (value) => {
    sealed ||= isSealed(value);
    return value;
  });
  return sealed;
}
