const SCHEME = /^(esdb|kurrentdb)(\+discover)?:\/\//i;

/**
 * KurrentDB is EventStoreDB renamed, and its URLs say kurrentdb://; the v6
 * client refuses that scheme, so it is rewritten to the equivalent esdb one.
 */
export function toEsdbConnectionString(url: string): string {
  const match = SCHEME.exec(url.trim());
  if (match === null) {
    throw new Error('EVENTSTORE_URL must start with esdb://, esdb+discover://, kurrentdb:// or kurrentdb+discover://');
  }
  return `esdb${match[2] ?? ''}://${url.trim().slice(match[0].length)}`;
}
