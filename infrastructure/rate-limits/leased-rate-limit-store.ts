import type { BucketState, RateLimitStore } from '../../application/ports/rate-limit-store.js';

/** Past this many buckets, those whose window has ended are dropped before another lease is taken. */
const SWEEP_ABOVE_BUCKETS = 10_000;

interface Lease {
  /** Requests taken from the shared bucket and not yet used here. */
  unused: number;
  /** What the shared bucket had left after the last lease. */
  sharedRemaining: number;
  /** Epoch ms when the shared bucket's window ends, and with it every lease of that window. */
  endsAt: number;
  /** The lease being taken, which the requests arriving meanwhile wait for rather than each taking their own. */
  renewal: Promise<void> | null;
}

/** What may be left of a lease when the next one is taken ahead, so busy requests never wait for the shared store. */
const RENEW_AHEAD_SHARE = 0.25;
/** A lease taken ahead must land in its window: none is taken ahead this close to the window's end. */
const RENEW_AHEAD_MIN_WINDOW_MS = 100;

/**
 * Takes a busy bucket's requests from the shared store several at a time (`leaseShare` of its limit per lease, never
 * more than the bucket was last seen to have left) and admits the rest of a lease from memory. The next lease is taken
 * in the background once a quarter of the current one is left, so within a window only its first request waits for
 * the shared store. The shared count comes before admission, so instances together never exceed the limit; a lease
 * unused within the window is lost to the others, so several instances may refuse up to a lease and a quarter short of
 * the limit each (one admits exactly the limit). Limits too small to split go to the shared store request by request.
 */
export class LeasedRateLimitStore implements RateLimitStore {
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly shared: RateLimitStore,
    private readonly leaseShare: number,
    private readonly now: () => number = Date.now,
  ) {}

  async consume(bucket: string, limitPerSecond: number, points = 1): Promise<BucketState> {
    const leaseSize = Math.floor(limitPerSecond * this.leaseShare);
    // Leases serve requests one at a time; a count of several goes to the shared bucket as it is.
    if (leaseSize <= 1 || points !== 1) return this.shared.consume(bucket, limitPerSecond, points);
    for (;;) {
      const now = this.now();
      const lease = this.leases.get(bucket);
      const current = lease !== undefined && lease.endsAt > now ? lease : undefined;
      if (current !== undefined && current.unused > 0) {
        current.unused -= 1;
        if (current.unused <= Math.floor(leaseSize * RENEW_AHEAD_SHARE))
          this.renewAhead(bucket, limitPerSecond, current);
        return {
          allowed: true,
          remaining: current.sharedRemaining + current.unused,
          msBeforeReset: current.endsAt - now,
        };
      }
      if (lease?.renewal != null) {
        await lease.renewal;
        continue;
      }
      return this.lease(bucket, limitPerSecond, Math.min(leaseSize, current?.sharedRemaining ?? leaseSize));
    }
  }

  /** Takes `size` requests (at least one) from the shared bucket and uses the first. */
  private async lease(bucket: string, limitPerSecond: number, size: number): Promise<BucketState> {
    if (this.leases.size > SWEEP_ABOVE_BUCKETS) this.sweep();
    const points = Math.max(1, size);
    let renewed!: () => void;
    const lease: Lease = {
      unused: 0,
      sharedRemaining: 0,
      endsAt: 0,
      renewal: new Promise<void>((resolve) => (renewed = resolve)),
    };
    this.leases.set(bucket, lease);
    try {
      const state = await this.shared.consume(bucket, limitPerSecond, points);
      lease.endsAt = this.now() + state.msBeforeReset;
      if (!state.allowed) return state;
      lease.unused = points - 1;
      lease.sharedRemaining = state.remaining;
      return { allowed: true, remaining: state.remaining + lease.unused, msBeforeReset: state.msBeforeReset };
    } finally {
      lease.renewal = null;
      renewed();
    }
  }

  /** Adds the next lease to `lease` in the background; the request path reports the shared store's failures. */
  private renewAhead(bucket: string, limitPerSecond: number, lease: Lease): void {
    const size = Math.min(Math.floor(limitPerSecond * this.leaseShare), lease.sharedRemaining);
    if (lease.renewal !== null || size <= 0 || lease.endsAt - this.now() < RENEW_AHEAD_MIN_WINDOW_MS) return;
    let renewed!: () => void;
    lease.renewal = new Promise<void>((resolve) => (renewed = resolve));
    this.shared
      .consume(bucket, limitPerSecond, size)
      .then((state) => {
        if (!state.allowed) {
          lease.sharedRemaining = 0;
          return;
        }
        // Taken in a later window (the store was slow): the lease starts over in that window.
        const endsAt = this.now() + state.msBeforeReset;
        if (Math.abs(endsAt - lease.endsAt) >= RENEW_AHEAD_MIN_WINDOW_MS) {
          lease.unused = 0;
          lease.endsAt = endsAt;
        }
        lease.unused += size;
        lease.sharedRemaining = state.remaining;
      })
      .catch(() => undefined)
      .finally(() => {
        lease.renewal = null;
        renewed();
      });
  }

  private sweep(): void {
    const now = this.now();
    for (const [bucket, lease] of this.leases)
      if (lease.endsAt <= now && lease.renewal === null) this.leases.delete(bucket);
  }
}
