import { DomainError } from '../../domain/errors.js';

export interface OutageRetryPolicy {
  /** Attempts end once the next pause would pass this, counted from the first attempt. */
  withinMs: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

/**
 * How a channel listing settles its reservation through a short outage of the event store (a PostgreSQL restart):
 * long enough for a restart, short enough that the request still answers. The releasers of listings wait this long
 * beyond a listing's own timeout before they take a reservation for abandoned.
 */
export const LISTING_SETTLE_RETRY: OutageRetryPolicy = { withinMs: 20_000, initialDelayMs: 100, maxDelayMs: 2_000 };

/**
 * `step`'s result, running it again after an error of the infrastructure (a lost connection, a database restarting)
 * with pauses that double, until it succeeds, the policy's time is up or `signal` aborts; then the last error is
 * thrown. A refusal by the domain is final at once. `step` must be idempotent: an append whose answer was lost may
 * have committed, and the attempt after it must then change nothing.
 */
export async function retryThroughOutage<T>(
  step: () => Promise<T>,
  policy: OutageRetryPolicy,
  signal?: AbortSignal,
): Promise<T> {
  const deadline = Date.now() + policy.withinMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await step();
    } catch (error) {
      const pauseMs = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
      if (error instanceof DomainError || signal?.aborted === true || Date.now() + pauseMs > deadline) throw error;
      await pause(pauseMs, signal);
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
