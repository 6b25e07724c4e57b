import type { HelperProcess } from './helper-process.js';

export interface HelperPoolOptions {
  /** Helpers at most, counting those starting. */
  size: number;
  /** How long a request waits for a busy pool's helper before it gives up (its caller then uses the command line). */
  waitMs: number;
  /** A new helper; null when none can start. */
  start: () => Promise<HelperProcess | null>;
  /** False for a helper that must not serve again (it imported a yt-dlp replaced since). */
  reusable: (helper: HelperProcess) => boolean;
  /** Told once per helper that left the pool, however it left. */
  left: (helper: HelperProcess) => void;
}

/** A request waiting for a helper; `take` answers false when the request gave up meanwhile. */
interface Waiter {
  take(helper: HelperProcess | null): boolean;
}

/**
 * The warm helpers' places. A helper's place is freed whenever the helper
 * ends, idle, busy or starting, killed by this process or by anyone else (the
 * OOM killer), so dead helpers never hold places the pool then waits on; and
 * no request waits for a place longer than `waitMs`.
 */
export class HelperPool {
  private readonly idle: HelperProcess[] = [];
  private readonly members = new Set<HelperProcess>();
  private readonly waiting: Waiter[] = [];
  private starting = 0;
  private closed = false;

  constructor(private readonly options: HelperPoolOptions) {}

  /** An idle helper, a new one, or one that becomes free within `waitMs`; null means "use the command line". */
  async acquire(signal?: AbortSignal): Promise<HelperProcess | null> {
    if (this.closed) return null;
    for (let helper = this.idle.pop(); helper !== undefined; helper = this.idle.pop()) {
      if (helper.alive) return helper;
      this.remove(helper);
    }
    if (this.members.size + this.starting < this.options.size) return this.startOne();
    signal?.throwIfAborted();
    return this.wait(signal);
  }

  /** Hands a helper back after a request: to a waiting request, to the idle ones, or out of the pool when it must not serve again. */
  release(helper: HelperProcess): void {
    if (!helper.alive || this.closed || !this.options.reusable(helper)) {
      helper.kill();
      this.remove(helper);
      return;
    }
    while (this.waiting.length > 0) {
      if ((this.waiting.shift() as Waiter).take(helper)) return;
    }
    this.idle.push(helper);
  }

  /** Ends the idle helpers (a new yt-dlp was installed); busy ones end when released. */
  retireIdle(): void {
    for (const helper of this.idle.splice(0)) {
      helper.kill();
      this.remove(helper);
    }
  }

  /** Every waiting request goes to the command line (no helper can start now). */
  turnAwayWaiting(): void {
    for (const waiter of this.waiting.splice(0)) waiter.take(null);
  }

  close(): void {
    this.closed = true;
    this.turnAwayWaiting();
    this.retireIdle();
  }

  private async startOne(): Promise<HelperProcess | null> {
    this.starting += 1;
    let helper: HelperProcess | null;
    try {
      helper = await this.options.start();
    } finally {
      this.starting -= 1;
    }
    if (helper === null) return null;
    this.members.add(helper);
    const added = helper;
    void added.ended.then(() => this.remove(added));
    return helper;
  }

  private wait(signal: AbortSignal | undefined): Promise<HelperProcess | null> {
    return new Promise<HelperProcess | null>((resolve, reject) => {
      let done = false;
      const settle = () => {
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
      };
      const waiter: Waiter = {
        take: (helper) => {
          if (done) return false;
          settle();
          resolve(helper);
          return true;
        },
      };
      const timer = setTimeout(() => waiter.take(null), this.options.waitMs);
      const onAbort = () => {
        if (done) return;
        settle();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Frees a helper's place (once, however often its end is reported) and lets a waiting request start a helper in it. */
  private remove(helper: HelperProcess): void {
    if (!this.members.delete(helper)) return;
    const index = this.idle.indexOf(helper);
    if (index >= 0) this.idle.splice(index, 1);
    this.options.left(helper);
    this.serveWaiting();
  }

  private serveWaiting(): void {
    if (this.closed || this.waiting.length === 0 || this.members.size + this.starting >= this.options.size) return;
    const waiter = this.waiting.shift() as Waiter;
    void this.startOne().then(
      (helper) => {
        if (helper !== null && !waiter.take(helper)) this.release(helper);
        else if (helper === null) waiter.take(null);
      },
      () => waiter.take(null),
    );
  }
}
