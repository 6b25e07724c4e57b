/** Which news a waiter cares about, from the categories appended (null when unknown). */
export type NewsInterest = (categories: readonly string[] | null) => boolean;

/** Any news at all. */
const ANY_NEWS: NewsInterest = () => true;

/** A point in a process's news: what was heard after it can be asked for (CategoryNews.mark). */
export type NewsMark = number;

/**
 * Waiters of this process, each woken only by news of the categories it is interested in. Whoever hears of appends
 * (the appending store itself, or a LISTEN connection) announces them here. It remembers when each category was
 * last in the news, so a reader that marks the news before it reads can tell whether any came while it read.
 */
export class CategoryNews {
  private readonly waiters = new Map<() => void, NewsInterest>();
  private announcements = 0;
  private readonly lastNewsOf = new Map<string, number>();
  /** The last news that named no category, or woke everyone: news of interest to all. */
  private lastNewsOfAll = 0;

  mark(): NewsMark {
    return this.announcements;
  }

  /**
   * Resolves true at the next news it is interested in, or at once when some came after `since`; false after
   * `timeoutMs` or when `signal` aborts.
   */
  wait(timeoutMs: number, signal: AbortSignal, interest: NewsInterest = ANY_NEWS, since?: NewsMark): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (since !== undefined && this.heardSince(since, interest)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const finish = (notified: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiters.delete(onNews);
        resolve(notified);
      };
      const onNews = () => finish(true);
      const onAbort = () => finish(false);
      const timer = setTimeout(onAbort, timeoutMs);
      signal.addEventListener('abort', onAbort);
      this.waiters.set(onNews, interest);
    });
  }

  /** Wakes the waiters interested in news of `categories` (null when they are unknown). */
  announce(categories: readonly string[] | null): void {
    this.announcements += 1;
    if (categories === null) this.lastNewsOfAll = this.announcements;
    else for (const category of categories) this.lastNewsOf.set(category, this.announcements);
    for (const [wake, interest] of [...this.waiters]) if (interest(categories)) wake();
  }

  /** Wakes every waiter, interested or not. */
  wakeAll(): void {
    this.announcements += 1;
    this.lastNewsOfAll = this.announcements;
    for (const wake of [...this.waiters.keys()]) wake();
  }

  private heardSince(since: NewsMark, interest: NewsInterest): boolean {
    if (this.lastNewsOfAll > since) return true;
    for (const [category, last] of this.lastNewsOf) if (last > since && interest([category])) return true;
    return false;
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
