import type { Logger } from '../../application/ports/logger.js';
import type { WorkQueue } from '../../application/ports/work-queue.js';
import type { CheckpointedProcessorOptions } from '../processing/checkpointed-processor.js';
import { InProcessWorkQueue } from '../work-queue/in-process-work-queue.js';

export interface WorkQueueSettings {
  /** JetStream when set; otherwise the in-process queue in the service's own database. */
  natsUrl: string | null;
  natsStream: string;
  /** How many servers of a cluster keep the stream. */
  natsStreamReplicas: number;
  subjects: string[];
  connectionName: string;
}

/**
 * The one place that picks the work queue's adapter; the rest of the service sees only the port.
 * JetStream's adapter and the NATS client load only when used: embedded mode never needs their memory.
 */
export async function openWorkQueue(
  settings: WorkQueueSettings,
  processor: CheckpointedProcessorOptions,
  logger: Logger,
): Promise<WorkQueue> {
  if (settings.natsUrl === null) return InProcessWorkQueue.open({ processor, logger, exclusive: true });
  const { JetStreamWorkQueue } = await import('../nats/jetstream-work-queue.js');
  return JetStreamWorkQueue.open({
    url: settings.natsUrl,
    stream: settings.natsStream,
    replicas: settings.natsStreamReplicas,
    subjects: settings.subjects,
    connectionName: settings.connectionName,
    logger,
    processor,
  });
}
