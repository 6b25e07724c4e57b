import type { Logger } from '../../application/ports/logger.js';
import type { WorkQueue } from '../../application/ports/work-queue.js';
import { WORK_KINDS } from '../../application/processes/work-routing.js';
import type { Config, Role } from '../config/config.js';
import type { Storage } from '../database/open-storage.js';
import { BroadcastProgressReports } from '../live/broadcast-progress-reports.js';
import { BroadcastJobCancellations } from '../work-queue/broadcast-job-cancellations.js';
import { workSubject } from '../work-queue/work-subject.js';
import type { Container } from './container.js';
import { openWorkQueue } from './open-adapters.js';
import { processorOptions } from './processor-options.js';
import { TOKENS } from './tokens.js';

/**
 * Opens the work queue every role of this process shares and registers it, with the cancellations and the progress
 * reports that travel on its broadcasts.
 */
export async function registerWorkQueue(
  c: Container,
  config: Config,
  roles: ReadonlySet<Role>,
  storage: Storage,
  logger: Logger,
): Promise<WorkQueue> {
  const settings = {
    natsUrl: config.mode === 'embedded' ? null : config.queue.natsUrl,
    natsStream: config.queue.natsStreamName,
    natsStreamReplicas: config.queue.natsStreamReplicas,
    subjects: WORK_KINDS.map((kind) => workSubject(config, kind)),
    connectionName: `video-download-service:${[...roles].join('+')}`,
  };
  const queue = await openWorkQueue(settings, processorOptions(config, storage, logger), logger);
  logger.info(
    { mode: config.mode, storage: storage.description, workQueue: queue.kind },
    `Running in ${config.mode} mode`,
  );
  c.value(TOKENS.workQueue, queue);
  c.value(TOKENS.jobCancellations, new BroadcastJobCancellations(queue.broadcast('cancellations'), logger));
  // Only the worker role runs downloads, so only its processes ever open the progress channel.
  c.singleton(TOKENS.progressReports, () => new BroadcastProgressReports(queue.broadcast('progress'), logger));
  return queue;
}
