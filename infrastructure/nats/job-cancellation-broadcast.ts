import type { NatsConnection, Subscription } from 'nats';
import type { JobCancellations } from '../../application/ports/job-cancellations.js';
import type { Logger } from '../../application/ports/logger.js';

/**
 * Cancellations travel as plain NATS messages on one subject that every
 * worker process subscribes to (not through the work queue, which hands each
 * message to a single consumer). Losing one costs only time: the worker
 * finds the job FAILED when it tries to complete it and throws its result away.
 */
export class NatsJobCancellations implements JobCancellations {
  constructor(
    private readonly nats: NatsConnection,
    private readonly subject: string,
    private readonly logger: Logger,
  ) {}

  async announce(jobId: string): Promise<void> {
    try {
      this.nats.publish(this.subject, JSON.stringify({ jobId }));
      await this.nats.flush();
    } catch (error) {
      this.logger.warn({ jobId, err: error }, 'could not announce a cancellation; the worker will notice when it completes');
    }
  }
}

/** Calls `onCancel` with the job id of every announced cancellation until stopped. */
export function listenForCancellations(nats: NatsConnection, subject: string, onCancel: (jobId: string) => void): { stop(): Promise<void> } {
  const subscription: Subscription = nats.subscribe(subject, {
    callback: (error, message) => {
      if (error !== null) return;
      try {
        const { jobId } = message.json<{ jobId?: unknown }>();
        if (typeof jobId === 'string') onCancel(jobId);
      } catch {
        // Not ours: ignore.
      }
    },
  });
  return {
    async stop() {
      subscription.unsubscribe();
    },
  };
}
