type Found<T> = Exclude<T, false | null | undefined>;

const found = <T>(value: T): value is Found<T> => value !== false && value !== null && value !== undefined;

/**
 * Polls `check` until it gives something other than false, null or undefined, and returns that;
 * after `timeoutMs` it fails naming `what` was awaited. Tests wait on conditions like this rather
 * than on fixed sleeps, which a busy machine outruns.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 60_000,
  pollMs = 50,
): Promise<Found<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (found(result)) return result;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
