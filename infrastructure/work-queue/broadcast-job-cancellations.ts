import type { JobCancellations } from '../../application/ports/job-cancellations.js';
import type { Logger } from '../../application/ports/logger.js';
import type { Broadcast } from '../../application/ports/work-queue.js';

/**
 * Cancellations go to every worker process at once (not through the work
 * queue, which hands each message to a single consumer). Losing one costs
 * only time: the worker finds the job FAILED when it tries to complete it and
 * throws its result away.
 */
export class BroadcastJobCancellations implements JobCancellations {
  constructor(
    private readonly channel: Broadcast,
    private readonly logger: Logger,
  ) {}

  async announce(jobId: string): Promise<void> {
    try {
      await this.channel.publish({ jobId });
    } catch (error) {
      this.logger.warn(
        { jobId, err: error },
        'could not announce a cancellation; the worker will notice when it completes',
      );
    }
  }

  /** Calls `onCancel` with the job id of every announced cancellation until stopped. */
  listen(onCancel: (jobId: string) => void): { stop(): Promise<void> } {
    return this.channel.subscribe((message) => {
      const { jobId } = (message ?? {}) as { jobId?: unknown };
      if (typeof jobId === 'string') onCancel(jobId);
    });
  }
}
