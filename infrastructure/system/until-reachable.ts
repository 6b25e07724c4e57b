import type { Logger } from '../../application/ports/logger.js';
import { isDependencyOutage } from './dependency-outage.js';
import { sleep } from './sleep.js';

/** How long a start-up step waits for PostgreSQL by default: longer than a restart or a failover takes. */
const DEFAULT_WAIT_MS = 120_000;

export interface UntilReachableOptions {
  waitMs?: number;
  /** Asked before each new try: false ends the wait with the last error (a stop was asked for meanwhile). */
  goOn?: () => boolean;
  /** Which errors are worth waiting out; by default a passing outage of PostgreSQL or NATS. */
  passing?: (error: unknown) => boolean;
  /** What the warning of each try says. */
  reason?: string;
}

/**
 * Runs a start-up step that needs a server, trying again with a growing pause while the server is out of reach (see
 * isDependencyOutage), for up to `waitMs`: a process started while its database restarts waits for it instead of
 * exiting into a restart loop. Any other error (a wrong URL's name, a schema that does not fit) ends it at once.
 */
export async function untilReachable<T>(
  step: () => Promise<T>,
  what: string,
  logger: Logger,
  {
    waitMs = DEFAULT_WAIT_MS,
    goOn = () => true,
    passing = isDependencyOutage,
    reason = 'the server is out of reach',
  }: UntilReachableOptions = {},
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await step();
    } catch (error) {
      if (!passing(error) || Date.now() >= deadline || !goOn()) throw error;
      logger.warn({ err: error, attempt }, `${what}: ${reason}; trying again`);
      await sleep(Math.min(5_000, 250 * 2 ** attempt));
    }
  }
}
