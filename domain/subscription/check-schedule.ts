const MINUTE_MS = 60_000;

/**
 * Where in every interval a subscription's checks fall, as a fraction of
 * it, from its id: the same for every check of the subscription, and spread
 * evenly over the interval across subscriptions, so that a thousand hourly
 * subscriptions do not all check at the top of the hour. FNV-1a over the
 * id's UTF-16 code units: small, stable across releases, and plenty to
 * spread ids.
 */
export function checkPhase(seed: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < seed.length; index += 1) {
    hash ^= seed.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 2 ** 32;
}

/**
 * The subscription's first check time strictly after `after`: its checks
 * fall on the instants `phase + k * interval` counted from the epoch, so they
 * come exactly one interval apart whatever the time a check took.
 */
export function nextCheckAt(seed: string, checkEveryMinutes: number, after: string): string {
  const intervalMs = checkEveryMinutes * MINUTE_MS;
  const offsetMs = Math.floor(checkPhase(seed) * intervalMs);
  const periods = Math.floor((Date.parse(after) - offsetMs) / intervalMs) + 1;
  return new Date(periods * intervalMs + offsetMs).toISOString();
}

/** The first check time at or after `notBefore` and strictly after `after`, for checks put off by a back-off. */
export function nextCheckNotBefore(
  seed: string,
  checkEveryMinutes: number,
  after: string,
  notBefore: string | null,
): string {
  if (notBefore === null || Date.parse(notBefore) <= Date.parse(after))
    return nextCheckAt(seed, checkEveryMinutes, after);
  return nextCheckAt(seed, checkEveryMinutes, new Date(Date.parse(notBefore) - 1).toISOString());
}
