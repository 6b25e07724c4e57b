/**
 * The calls a store has under way, so that closing it can let them finish first: a pool ended under running work
 * (pg's never answers a connect() still queued when it ends) would leave that work hanging.
 */
export class CallsUnderWay {
  private readonly running = new Set<Promise<unknown>>();
  private closed = false;

  /** Runs `work`, unless the store is closing. */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The event store is closed'));
    const running = work();
    this.running.add(running);
    const forget = () => this.running.delete(running);
    running.then(forget, forget);
    return running;
  }

  /** Refuses new calls from now on, and resolves once those under way have settled. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running]);
  }
}
