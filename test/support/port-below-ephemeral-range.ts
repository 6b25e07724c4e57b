/**
 * A random port for a child process to listen on, below the range Linux hands out to outgoing connections and to
 * `listen(0)` (32768 and up by default), so that no connection of a test running beside it can be holding it.
 * `span` ports from the returned one on are all in that safe range.
 */
export function portBelowEphemeralRange(span = 1): number {
  return 20_000 + Math.floor(Math.random() * (12_000 - span));
}
