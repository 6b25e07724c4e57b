import { NatsError } from 'nats';
import type { Logger } from '../../application/ports/logger.js';
import { sleep } from '../system/sleep.js';

/** How long start-up waits for JetStream to answer by default. */
const DEFAULT_START_WAIT_MS = 60_000;

/**
 * Runs a start-up step that needs JetStream, trying again while no server
 * answers or a cluster has no leader (a full restart elects one within
 * seconds), for up to `waitMs`, so the process does not exit over an outage
 * its supervisor would only restart it into. Other errors end it at once.
 */
export async function untilJetStreamAnswers<T>(
  step: () => Promise<T>,
  what: string,
  logger: Logger,
  waitMs = DEFAULT_START_WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof NatsError) || Date.now() >= deadline) throw error;
      logger.warn(
        { err: error, attempt },
        `${what}: JetStream is not available yet (no server answers, or the cluster has no leader); trying again`,
      );
      await sleep(Math.min(5_000, 250 * 2 ** attempt));
    }
  }
}
