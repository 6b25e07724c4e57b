import { beatWhile } from '../../application/beat-while.js';

/** The exclusive task did not run: the runs under way did not finish within its wait. */
export class GateBusyError extends Error {
  constructor(waitedMs: number) {
    super(`runs under way did not finish within ${waitedMs} ms`);
    this.name = 'GateBusyError';
  }
}

/**
 * Many runs at once, or one exclusive task alone: the exclusive task waits
 * for the runs under way and holds back new ones until it is done, so
 * replacing the program never happens under a running download. It waits a
 * bounded time: runs held back meanwhile would otherwise wait as long as the
 * longest download under way.
 */
export class ExclusiveGate {
  private running = 0;
  private exclusive: Promise<void> | null = null;
  private drained: (() => void) | null = null;

  /** `onWaiting` is called now and then while the run is held back; `signal` ends the wait. */
  async shared<T>(task: () => Promise<T>, options: { signal?: AbortSignal; onWaiting?: () => void } = {}): Promise<T> {
    if (this.exclusive !== null) await beatWhile(this.exclusiveDone(options.signal), options.onWaiting);
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      if (this.running === 0) this.drained?.();
    }
  }

  /** Runs `task` alone; throws GateBusyError, without running it, when the runs under way outlast `maxWaitMs`. */
  async alone<T>(task: () => Promise<T>, options: { maxWaitMs?: number } = {}): Promise<T> {
    while (this.exclusive !== null) await this.exclusive;
    let release!: () => void;
    this.exclusive = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      if (this.running > 0 && !(await this.drain(options.maxWaitMs))) throw new GateBusyError(options.maxWaitMs ?? 0);
      return await task();
    } finally {
      this.exclusive = null;
      release();
    }
  }

  private async exclusiveDone(signal: AbortSignal | undefined): Promise<void> {
    while (this.exclusive !== null) {
      signal?.throwIfAborted();
      const current = this.exclusive;
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(signal?.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        void current.then(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
  }

  /** True once no run is under way; false when `maxWaitMs` passed first. */
  private drain(maxWaitMs: number | undefined): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = maxWaitMs === undefined ? undefined : setTimeout(() => resolve(false), maxWaitMs);
      this.drained = () => {
        clearTimeout(timer);
        resolve(true);
      };
    }).finally(() => {
      this.drained = null;
    });
  }
}
