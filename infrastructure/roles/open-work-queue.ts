import type { Logger } from '../../application/ports/logger.js';
import type { WorkQueue } from '../../application/ports/work-queue.js';
import type { CheckpointedProcessorOptions } from '../../projections/checkpointed-processor.js';
import { JetStreamWorkQueue } from '../nats/jetstream-work-queue.js';
import { InProcessWorkQueue } from '../work-queue/in-process-work-queue.js';

export interface WorkQueueSettings {
  /** JetStream when set; otherwise the in-process queue in the service's own database. */
  natsUrl: string | null;
  natsStream: string;
  subjects: string[];
  connectionName: string;
}

/** The one place that picks the work queue's adapter; the rest of the service sees only the port. */
export function openWorkQueue(
  settings: WorkQueueSettings,
  processor: CheckpointedProcessorOptions,
  logger: Logger,
): Promise<WorkQueue> {
  if (settings.natsUrl === null) return InProcessWorkQueue.open({ processor, logger, exclusive: true });
  return JetStreamWorkQueue.open({
    url: settings.natsUrl,
    stream: settings.natsStream,
    subjects: settings.subjects,
    connectionName: settings.connectionName,
    logger,
    processor,
  });
}
