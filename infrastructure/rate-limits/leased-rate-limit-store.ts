import type { BucketState, RateLimitStore } from '../../application/ports/rate-limit-store.js';
import type { WindowCounter } from './window-counter.js';

/** The limits' window: the clock's whole second, the same on every instance. */
const WINDOW_MS = 1_000;
/** Past this many buckets, those whose windows have ended are dropped before another is added. */
const SWEEP_ABOVE_BUCKETS = 10_000;
/** What may be left of a lease when the next one is taken ahead, so busy requests never wait for the shared count. */
const RENEW_AHEAD_SHARE = 0.25;
/** A busy bucket takes its first lease of the next window this close to the end of the current one. */
const NEXT_WINDOW_AHEAD_MS = 200;
/** Busy: admitted this many requests in the current window. A bucket used once a second is left to lease as it comes. */
const BUSY_REQUESTS = 2;

/** This instance's share of one bucket's count in one window. */
interface Lease {
  epochSecond: number;
  /** Requests taken from the shared count and not yet used here. */
  unused: number;
  /** Requests admitted here in this window. */
  admitted: number;
  /** What the shared count had left after this instance's last lease; 0 once a lease was refused. */
  sharedRemaining: number;
  /** The shared count refused a single request: the bucket is spent until the window ends. */
  spent: boolean;
  /** The lease being taken, which requests arriving meanwhile wait for rather than each taking their own. */
  renewal: Promise<void> | null;
}

interface BucketLeases {
  current: Lease;
  /** The next window's first lease, taken before that window starts. */
  next: Lease | null;
}

/**
 * Takes a busy bucket's requests from the shared count several at a time (`leaseShare` of its limit per lease, never
 * more than the count was last seen to have left) and admits the rest of a lease from memory. Windows are the clock's
 * seconds, so no request waits for the shared count: the next lease is taken in the background once a quarter of the
 * current one is left, and a bucket still busy near a window's end takes the next window's first lease before it
 * starts. The shared count comes before admission, so instances together never exceed the limit; a lease unused within
 * its window is lost to the others, so several instances may refuse up to a lease and a quarter short of the limit
 * each (one admits exactly the limit). Limits too small to split go to the shared count request by request.
 */
export class LeasedRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, BucketLeases>();

  constructor(
    private readonly shared: WindowCounter,
    private readonly leaseShare: number,
    private readonly now: () => number = Date.now,
  ) {}

  async consume(bucket: string, limitPerSecond: number, points = 1): Promise<BucketState> {
    const leaseSize = Math.floor(limitPerSecond * this.leaseShare);
    // Leases serve requests one at a time; a count of several goes to the shared count as it is.
    if (leaseSize <= 1 || points !== 1) return this.countDirectly(bucket, limitPerSecond, points);
    for (;;) {
      const now = this.now();
      const lease = this.leaseAt(bucket, now);
      if (lease.unused > 0) return this.admit(bucket, limitPerSecond, lease, leaseSize, now);
      if (lease.renewal !== null) await lease.renewal;
      else if (lease.spent) return refused(lease, now);
      else await this.take(bucket, limitPerSecond, lease, Math.min(leaseSize, lease.sharedRemaining));
    }
  }

  consumeAtOnce(bucket: string, limitPerSecond: number): BucketState | undefined {
    const leaseSize = Math.floor(limitPerSecond * this.leaseShare);
    if (leaseSize <= 1) return undefined;
    const now = this.now();
    const lease = this.leaseAt(bucket, now);
    if (lease.unused > 0) return this.admit(bucket, limitPerSecond, lease, leaseSize, now);
    if (lease.spent && lease.renewal === null) return refused(lease, now);
    return undefined;
  }

  /** One request from the lease's unused part; the next lease is taken ahead in the background when due. */
  private admit(bucket: string, limitPerSecond: number, lease: Lease, leaseSize: number, now: number): BucketState {
    lease.unused -= 1;
    lease.admitted += 1;
    this.renewAhead(bucket, limitPerSecond, lease, leaseSize);
    this.takeNextWindowAhead(bucket, limitPerSecond, lease, leaseSize, now);
    return { allowed: true, remaining: lease.sharedRemaining + lease.unused, msBeforeReset: msLeft(lease, now) };
  }

  /** Small limits and multi-point counts: straight to the shared count, refused from memory once spent. */
  private async countDirectly(bucket: string, limitPerSecond: number, points: number): Promise<BucketState> {
    const lease = this.leaseAt(bucket, this.now());
    if (lease.spent) return refused(lease, this.now());
    const count = await this.shared.add(bucket, lease.epochSecond, limitPerSecond, points);
    if (!count.allowed && points === 1) lease.spent = true;
    return { ...count, msBeforeReset: msLeft(lease, this.now()) };
  }

  /** The bucket's lease for the window `now` is in: the one taken ahead for it, or a new empty one. */
  private leaseAt(bucket: string, now: number): Lease {
    const epochSecond = Math.floor(now / WINDOW_MS);
    let leases = this.buckets.get(bucket);
    if (leases?.current.epochSecond === epochSecond) return leases.current;
    if (leases?.next?.epochSecond === epochSecond) {
      leases.current = leases.next;
      leases.next = null;
      return leases.current;
    }
    if (leases === undefined && this.buckets.size > SWEEP_ABOVE_BUCKETS) this.sweep(epochSecond);
    leases = { current: emptyLease(epochSecond), next: null };
    this.buckets.set(bucket, leases);
    return leases.current;
  }

  /** Takes `size` requests (at least one) from the shared count into `lease`, as the requests waiting on it do. */
  private async take(bucket: string, limitPerSecond: number, lease: Lease, size: number): Promise<void> {
    let done!: () => void;
    lease.renewal = new Promise<void>((resolve) => (done = resolve));
    try {
      await this.addTo(lease, bucket, limitPerSecond, Math.max(1, size));
    } finally {
      lease.renewal = null;
      done();
    }
  }

  private async addTo(lease: Lease, bucket: string, limitPerSecond: number, size: number): Promise<void> {
    const count = await this.shared.add(bucket, lease.epochSecond, limitPerSecond, size);
    if (count.allowed) {
      lease.unused += size;
      lease.sharedRemaining = count.remaining;
    } else if (size === 1) lease.spent = true;
    // Others took what was seen left: the next lease asks for one request at a time, so none is refused early.
    else lease.sharedRemaining = 0;
  }

  /** Adds the window's next lease in the background; the request path reports the shared count's failures. */
  private renewAhead(bucket: string, limitPerSecond: number, lease: Lease, leaseSize: number): void {
    if (lease.renewal !== null || lease.unused > Math.floor(leaseSize * RENEW_AHEAD_SHARE)) return;
    const size = Math.min(leaseSize, lease.sharedRemaining);
    if (size > 0) this.take(bucket, limitPerSecond, lease, size).catch(() => undefined);
  }

  /** A busy bucket still used near its window's end leases the next window now. */
  private takeNextWindowAhead(
    bucket: string,
    limitPerSecond: number,
    lease: Lease,
    leaseSize: number,
    now: number,
  ): void {
    const leases = this.buckets.get(bucket);
    if (leases === undefined || leases.next !== null || leases.current !== lease) return;
    if (msLeft(lease, now) > NEXT_WINDOW_AHEAD_MS || lease.admitted < BUSY_REQUESTS) return;
    leases.next = emptyLease(lease.epochSecond + 1);
    this.take(bucket, limitPerSecond, leases.next, leaseSize).catch(() => undefined);
  }

  private sweep(epochSecond: number): void {
    for (const [bucket, { current, next }] of this.buckets)
      if (current.epochSecond < epochSecond && (next === null || next.epochSecond < epochSecond))
        this.buckets.delete(bucket);
  }
}

/** Nothing is known of the shared count yet: the first lease asks for a whole lease. */
function emptyLease(epochSecond: number): Lease {
  return {
    epochSecond,
    unused: 0,
    admitted: 0,
    sharedRemaining: Number.POSITIVE_INFINITY,
    spent: false,
    renewal: null,
  };
}

function msLeft(lease: Lease, now: number): number {
  return Math.max(0, (lease.epochSecond + 1) * WINDOW_MS - now);
}

function refused(lease: Lease, now: number): BucketState {
  return { allowed: false, remaining: 0, msBeforeReset: msLeft(lease, now) };
}
