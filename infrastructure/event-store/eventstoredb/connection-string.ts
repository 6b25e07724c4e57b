/**
 * The EventStoreDB client (v6) accepts esdb:// URLs only; KurrentDB, its
 * renamed successor, uses kurrentdb://, which is rewritten here.
 */
export function toEsdbConnectionString(url: string): string {
  const match = /^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover):\/\//.exec(url);
  if (match === null) throw new Error('EVENTSTORE_URL must start with esdb://, esdb+discover://, kurrentdb:// or kurrentdb+discover://');
  return url.replace(/^kurrentdb/, 'esdb');
}
