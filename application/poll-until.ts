const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 50;

/**
 * Reads `read` until `done` holds for what it returned, then returns that; null when `waitMs` ends first.
 * Reads soon at first, then every 50 ms: what is awaited (a projector's next batch) usually lands within milliseconds.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  waitMs: number,
): Promise<T | null> {
  const deadline = Date.now() + waitMs;
  for (let pollMs = FIRST_POLL_MS; ; pollMs = Math.min(MAX_POLL_MS, pollMs * 2)) {
    const value = await read();
    if (done(value)) return value;
    const left = deadline - Date.now();
    if (left <= 0) return null;
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, pollMs)));
  }
}
