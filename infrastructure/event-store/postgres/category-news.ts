/** Which news a waiter cares about, from the categories appended (null when unknown). */
export type NewsInterest = (categories: readonly string[] | null) => boolean;

/** Any news at all. */
const ANY_NEWS: NewsInterest = () => true;

/** A point in a process's news, taken before a read: what was heard after it can be asked for (heardSince). */
export type NewsMark = number;

/** What was heard after a mark: news a waiter is interested in, only news of other categories, or none. */
export type HeardNews = 'interesting' | 'other' | 'none';

interface Waiter {
  interest: NewsInterest;
  wake(): void;
  /** News of other categories: the wait ends within the waiter's own bound for such news. */
  hearOther(): void;
}

/**
 * Waiters of this process, each woken by news of the categories it is interested in, and hurried by news of the
 * others. Whoever hears of appends (the appending store itself, or a LISTEN connection) announces them here. It
 * remembers when each category was last in the news, so a reader that marks the news before it reads can tell what
 * came while it read.
 */
export class CategoryNews {
  private readonly waiters = new Set<Waiter>();
  private announcements = 0;
  private readonly lastNewsOf = new Map<string, number>();
  /** The last news that named no category, or woke everyone: news of interest to all. */
  private lastNewsOfAll = 0;

  mark(): NewsMark {
    return this.announcements;
  }

  heardSince(since: NewsMark, interest: NewsInterest = ANY_NEWS): HeardNews {
    if (this.announcements === since) return 'none';
    if (this.lastNewsOfAll > since) return 'interesting';
    for (const [category, last] of this.lastNewsOf) if (last > since && interest([category])) return 'interesting';
    return 'other';
  }

  /**
   * Resolves true at the next news it is interested in; false after `timeoutMs`, within `otherNewsWaitMs` of news of
   * other categories, or when `signal` aborts.
   */
  wait(
    timeoutMs: number,
    signal: AbortSignal,
    interest: NewsInterest = ANY_NEWS,
    otherNewsWaitMs = Number.POSITIVE_INFINITY,
  ): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      let endsAt = Date.now() + timeoutMs;
      const finish = (notified: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiters.delete(waiter);
        resolve(notified);
      };
      const onAbort = () => finish(false);
      let timer = setTimeout(onAbort, timeoutMs);
      const waiter: Waiter = {
        interest,
        wake: () => finish(true),
        hearOther: () => {
          // Only ever sooner: a steady stream of other news must not put the end off again and again.
          if (Date.now() + otherNewsWaitMs >= endsAt) return;
          endsAt = Date.now() + otherNewsWaitMs;
          clearTimeout(timer);
          timer = setTimeout(onAbort, otherNewsWaitMs);
        },
      };
      signal.addEventListener('abort', onAbort);
      this.waiters.add(waiter);
    });
  }

  /** Wakes the waiters interested in news of `categories` (null when they are unknown), and hurries the others. */
  announce(categories: readonly string[] | null): void {
    this.announcements += 1;
    if (categories === null) this.lastNewsOfAll = this.announcements;
    else for (const category of categories) this.lastNewsOf.set(category, this.announcements);
    for (const waiter of [...this.waiters]) {
      if (waiter.interest(categories)) waiter.wake();
      else waiter.hearOther();
    }
  }

  /** Wakes every waiter, interested or not. */
  wakeAll(): void {
    this.announcements += 1;
    this.lastNewsOfAll = this.announcements;
    for (const waiter of [...this.waiters]) waiter.wake();
  }
}

/** A subscription filtered by stream prefixes wakes only for news naming a category those prefixes can match. */
export function interestOf(streamPrefixes: readonly string[] | undefined): NewsInterest {
  if (streamPrefixes === undefined) return ANY_NEWS;
  return (categories) =>
    categories === null ||
    categories.some((category) =>
      streamPrefixes.some((prefix) => `${category}-`.startsWith(prefix) || prefix.startsWith(`${category}-`)),
    );
}
