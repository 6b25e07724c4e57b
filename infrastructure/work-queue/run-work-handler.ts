import type { Logger } from '../../application/ports/logger.js';
import type { WorkConsumerOptions, WorkHandler, WorkItem, WorkResult } from '../../application/ports/work-queue.js';

/**
 * Runs a handler and turns its outcome into what the queue does next, alike
 * on every queue: a thrown error is retried with growing delays, and a retry
 * asked for on the last allowed delivery becomes a termination, since no
 * delivery would follow it.
 */
export async function runWorkHandler(
  handler: WorkHandler,
  item: WorkItem,
  errorRetry: WorkConsumerOptions['errorRetry'],
  log: Logger,
): Promise<WorkResult> {
  let result: WorkResult;
  try {
    result = await handler(item);
  } catch (error) {
    const { initialDelayMs, maxDelayMs } = errorRetry ?? { initialDelayMs: 1_000, maxDelayMs: 60_000 };
    result = { retryAfterMs: Math.min(maxDelayMs, initialDelayMs * 2 ** (item.deliveryCount - 1)) };
    log.error({ err: error, retryAfterMs: result.retryAfterMs }, 'Work handler failed');
  }
  if (typeof result === 'object' && item.isLastAttempt) {
    log.error({}, 'Work asked for a retry on its last allowed delivery; terminating it');
    return 'terminate';
  }
  return result;
}
