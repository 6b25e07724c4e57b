import type { HelperProcess } from './helper-process.js';

export interface HelperPoolOptions {
  /** Helpers at most, counting those starting. */
  size: number;
  /** How long a request waits for a busy pool's helper before it gives up (its caller then uses the command line). */
  waitMs: number;
  /** Told once per helper that left the pool, however it left. */
  left: (helper: HelperProcess) => void;
}

/** What a request needs: helpers started with the same settings share a key, and `start` starts one (null when none can). */
export interface HelperKind {
  key: string;
  start: () => Promise<HelperProcess | null>;
}

/** A request waiting for a helper of its kind; `take` answers false when the request gave up meanwhile. */
interface Waiter {
  kind: HelperKind;
  take(helper: HelperProcess | null): boolean;
}

/**
 * The warm helpers' places. A request is served only by a helper started
 * with its settings (its kind): an idle one, a new one in a free place, or a
 * new one in the place of an idle helper of another kind. A helper's place
 * is freed whenever the helper ends, idle, busy or starting, killed by this
 * process or by anyone else (the OOM killer), so dead helpers never hold
 * places the pool then waits on; and no request waits for a place longer
 * than `waitMs`.
 */
export class HelperPool {
  private readonly idle: HelperProcess[] = [];
  private readonly members = new Map<HelperProcess, string>();
  private readonly waiting: Waiter[] = [];
  private starting = 0;
  private closed = false;

  constructor(private readonly options: HelperPoolOptions) {}

  /** A helper of this kind: idle, new, or free within `waitMs`; null means "use the command line". */
  async acquire(kind: HelperKind, signal?: AbortSignal): Promise<HelperProcess | null> {
    if (this.closed) return null;
    const idle = this.takeIdle(kind.key);
    if (idle !== undefined) return idle;
    if (this.hasRoom()) return this.startOne(kind);
    // The idle helper used least recently gives its place up to this request.
    const other = this.idle.shift();
    if (other !== undefined) {
      this.retire(other, false);
      return this.startOne(kind);
    }
    signal?.throwIfAborted();
    return this.wait(kind, signal);
  }

  /**
   * Hands a helper back after a request: to a request waiting for its kind,
   * to the idle ones, or out of the pool when it must not serve again or a
   * request of another kind waits for its place.
   */
  release(helper: HelperProcess, reusable = true): void {
    if (!helper.alive || this.closed || !reusable) {
      this.retire(helper);
      return;
    }
    const key = this.members.get(helper);
    for (const waiter of this.waiting.filter((candidate) => candidate.kind.key === key)) {
      if (waiter.take(helper)) return;
    }
    if (this.waiting.length > 0) {
      this.retire(helper);
      return;
    }
    this.idle.push(helper);
  }

  /** Ends the idle helpers `which` picks (all by default); busy ones are judged when released. */
  retireIdle(which: (helper: HelperProcess) => boolean = () => true): void {
    for (const helper of this.idle.filter(which)) this.retire(helper);
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

  private takeIdle(key: string): HelperProcess | undefined {
    for (let index = this.idle.length - 1; index >= 0; index -= 1) {
      const helper = this.idle[index];
      if (!helper.alive) {
        this.remove(helper);
      } else if (this.members.get(helper) === key) {
        this.idle.splice(index, 1);
        return helper;
      }
    }
    return undefined;
  }

  private hasRoom(): boolean {
    return this.members.size + this.starting < this.options.size;
  }

  private async startOne(kind: HelperKind): Promise<HelperProcess | null> {
    this.starting += 1;
    let helper: HelperProcess | null;
    try {
      helper = await kind.start();
    } finally {
      this.starting -= 1;
    }
    if (helper === null) return null;
    this.members.set(helper, kind.key);
    const added = helper;
    void added.ended.then(() => this.remove(added));
    return helper;
  }

  private wait(kind: HelperKind, signal: AbortSignal | undefined): Promise<HelperProcess | null> {
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
        kind,
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

  /** Kills a helper and frees its place; `serve` false keeps the place for the caller, who starts a helper in it. */
  private retire(helper: HelperProcess, serve = true): void {
    helper.kill();
    this.remove(helper, serve);
  }

  /** Frees a helper's place (once, however often its end is reported) and lets a waiting request start a helper in it. */
  private remove(helper: HelperProcess, serve = true): void {
    if (!this.members.delete(helper)) return;
    const index = this.idle.indexOf(helper);
    if (index >= 0) this.idle.splice(index, 1);
    this.options.left(helper);
    if (serve) this.serveWaiting();
  }

  private serveWaiting(): void {
    if (this.closed || this.waiting.length === 0 || !this.hasRoom()) return;
    const waiter = this.waiting.shift() as Waiter;
    void this.startOne(waiter.kind).then(
      (helper) => {
        if (helper !== null && !waiter.take(helper)) this.release(helper);
        else if (helper === null) waiter.take(null);
      },
      () => waiter.take(null),
    );
  }
}
