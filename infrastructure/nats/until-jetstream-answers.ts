import { NatsError } from 'nats';
import type { Logger } from '../../application/ports/logger.js';
import { untilReachable } from '../system/until-reachable.js';

/** How long start-up waits for JetStream to answer by default. */
const DEFAULT_START_WAIT_MS = 60_000;

/**
 * Runs a start-up step that needs JetStream, trying again while no server
 * answers or a cluster has no leader (a full restart elects one within
 * seconds), for up to `waitMs`, so the process does not exit over an outage
 * its supervisor would only restart it into. Other errors end it at once.
 */
export function untilJetStreamAnswers<T>(
  step: () => Promise<T>,
  what: string,
  logger: Logger,
  waitMs = DEFAULT_START_WAIT_MS,
): Promise<T> {
  return untilReachable(step, what, logger, {
    waitMs,
    passing: (error) => error instanceof NatsError,
    reason: 'JetStream is not available yet (no server answers, or the cluster has no leader)',
  });
}
