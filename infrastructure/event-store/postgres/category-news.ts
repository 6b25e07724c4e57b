/** Which news a waiter cares about, from the categories appended (null when unknown). */
export type NewsInterest = (categories: readonly string[] | null) => boolean;

/** Any news at all. */
const ANY_NEWS: NewsInterest = () => true;

/**
 * Waiters of this process, each woken only by news of the categories it is interested in. Whoever hears of appends
 * (the appending store itself, or a LISTEN connection) announces them here.
 */
export class CategoryNews {
  private readonly waiters = new Map<() => void, NewsInterest>();

  /** Resolves true at the next news it is interested in; false after `timeoutMs` or when `signal` aborts. */
  wait(timeoutMs: number, signal: AbortSignal, interest: NewsInterest = ANY_NEWS): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
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
    for (const [wake, interest] of [...this.waiters]) if (interest(categories)) wake();
  }

  /** Wakes every waiter, interested or not. */
  wakeAll(): void {
    for (const wake of [...this.waiters.keys()]) wake();
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
