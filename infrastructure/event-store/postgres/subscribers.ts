import type {
  Checkpoint,
  EventFilter,
  SubscribeOptions,
  Subscription,
} from '../../../application/ports/event-store.js';
import { type HeardNews, type NewsInterest, type NewsMark, interestOf } from './category-news.js';
import { PostgresSubscription } from './postgres-subscription.js';
import type { GlobalPage } from './read-global-page.js';

const DEFAULT_BATCH_SIZE = 100;

/** What a store of the PostgreSQL dialect gives its subscriptions: pages of its global order, and news of appends. */
export interface SubscriptionSource {
  readPage(after: Checkpoint | null, maxCount: number, filter: EventFilter | undefined): Promise<GlobalPage>;
  news: NewsSource;
}

/** The news of appends a store hears (see CategoryNews). */
export interface NewsSource {
  mark(): NewsMark;
  heardSince(since: NewsMark, interest: NewsInterest): HeardNews;
  wait(timeoutMs: number, signal: AbortSignal, interest: NewsInterest, otherNewsWaitMs: number): Promise<boolean>;
}

export interface SubscriptionPace {
  /** How often a subscription looks again shortly after news (its event may still be hidden). Default 250 ms. */
  pollIntervalMs?: number;
  /** How often an idle subscription looks when no news came for a while (see PostgresSubscription). Default 30 s. */
  idlePollMs?: number;
}

/**
 * The open subscriptions of a store: each reads the store's pages and wakes at news of the categories its filter can
 * match. Closing the store closes them; one opened after that comes closed.
 */
export class Subscribers {
  private readonly open = new Set<PostgresSubscription>();
  private closed = false;

  constructor(
    private readonly source: SubscriptionSource,
    private readonly pace: SubscriptionPace = {},
  ) {}

  subscribe(options: SubscribeOptions = {}): Subscription {
    const { filter } = options;
    const interest = interestOf(filter?.streamPrefixes);
    const subscription = new PostgresSubscription(
      (after, maxCount) => this.source.readPage(after, maxCount, filter),
      {
        mark: () => this.source.news.mark(),
        heardSince: (since) => this.source.news.heardSince(since, interest),
        wait: (timeoutMs, signal, otherNewsWaitMs) =>
          this.source.news.wait(timeoutMs, signal, interest, otherNewsWaitMs),
      },
      {
        after: options.after ?? null,
        batchSize: Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE),
        pollIntervalMs: this.pace.pollIntervalMs ?? 250,
        idlePollMs: this.pace.idlePollMs,
      },
      () => this.open.delete(subscription),
    );
    if (this.closed) void subscription.close();
    else this.open.add(subscription);
    return subscription;
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.open].map((subscription) => subscription.close()));
  }
}
