/** Lets waiters sleep until someone in this process says there is news, or a timeout passes. */
export class WakeSignal {
  private readonly waiters = new Set<() => void>();

  /** Resolves true when woken, false after `timeoutMs` or when `signal` aborts. */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (woken: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiters.delete(onWake);
        resolve(woken);
      };
      const onWake = () => finish(true);
      const onAbort = () => finish(false);
      const timer = setTimeout(onAbort, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(onWake);
    });
  }

  wakeAll(): void {
    for (const wake of [...this.waiters]) wake();
  }
}
