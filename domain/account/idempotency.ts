import type { AccountState, RememberedSubmission } from './state.js';

/** How long an account remembers an Idempotency-Key after the submission it admitted. */
const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** The admitted submission that used `key`, while it is still remembered at `now` (Unix ms). */
export function rememberedSubmission(state: AccountState, key: string, now: number): RememberedSubmission | null {
  const found = (state.idempotencyKeys ?? []).find((entry) => entry.key === key);
  return found !== undefined && found.reservedAt + IDEMPOTENCY_KEY_RETENTION_MS > now ? found : null;
}

/** The remembered keys once `entry` is added at `now`, dropping those past retention. */
export function rememberSubmission(state: AccountState, entry: RememberedSubmission): RememberedSubmission[] {
  const kept = (state.idempotencyKeys ?? []).filter(
    (old) => old.key !== entry.key && old.reservedAt + IDEMPOTENCY_KEY_RETENTION_MS > entry.reservedAt,
  );
  return [...kept, entry];
}
