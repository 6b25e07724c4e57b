import type { WorkQueue } from '../../application/ports/work-queue.js';
import type { CheckpointedProcessorOptions } from '../processing/checkpointed-processor.js';
import type { FeatureContext } from '../composition/feature-module.js';
import type { ReadinessCheck } from '../http/routes/operations-routes.js';

/** What every role starts from: the sealed container, and the work queue the composition root opened for it. */
export interface RoleContext extends FeatureContext {
  queue: WorkQueue;
  /** For checkpointed processors: projections, the relay. */
  processorOptions: CheckpointedProcessorOptions;
  /** What this process's roles add to /readyz, by name: each true while its part works. */
  readiness: Record<string, ReadinessCheck>;
}
