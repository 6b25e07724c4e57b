import type { Logger } from '../application/ports/logger.js';
import type { WorkQueue, WorkRelay } from '../application/ports/work-queue.js';
import { WORK_KINDS } from '../application/processes/work-routing.js';
import type { CheckpointedProcessorOptions } from './processing/checkpointed-processor.js';
import type { ProjectionRunner } from './processing/projection-runner.js';
import type { Container } from './composition/container.js';
import { createContainer } from './composition/create-container.js';
import type { Overrides } from './composition/overrides.js';
import { TOKENS } from './composition/tokens.js';
import type { Config, Role } from './config/config.js';
import { startAdminEndpoint } from './admin/admin-endpoint.js';
import { startApiRole } from './roles/api-role.js';
import { startProjectorRole } from './roles/projector-role.js';
import type { RoleContext } from './roles/role-context.js';
import { Stoppables } from './roles/stoppables.js';
import { startSweeperRole } from './roles/sweeper-role.js';
import { startWorkerRole } from './roles/worker-role.js';
import { workSubject } from './work-queue/work-subject.js';
import { BroadcastJobCancellations } from './work-queue/broadcast-job-cancellations.js';
import { openWorkQueue } from './roles/open-work-queue.js';

export interface RunningService {
  /** The API's base address (http://host:port), when the api role runs. */
  url: string | null;
  container: Container;
  projections: ProjectionRunner | null;
  relay: WorkRelay | null;
  stop(): Promise<void>;
}

/**
 * Starts the chosen roles in this process: `api` (HTTP), `projector` (read models), `worker` (relay
 * to the work queue and the work consumers), `sweeper` (retention). Each role can run in its own
 * processes; locks keep one projector and one relay active.
 */
export async function startService(
  config: Config,
  roles: ReadonlySet<Role>,
  logger: Logger,
  overrides: Overrides = {},
): Promise<RunningService> {
  const { container, close } = await createContainer(config, logger, overrides);
  // Stopped in this order: the API first, so no new work arrives while the rest winds down.
  const api = new Stoppables(logger);
  const others = new Stoppables(logger);
  let queue: WorkQueue | null = null;
  const stopAll = async () => {
    await api.stopAll();
    await others.stopAll();
    await queue?.close();
    await close();
  };
  try {
    await (roles.has('api') || roles.has('worker') ? container.resolve(TOKENS.ytDlp)?.detected : undefined);
    const storage = container.resolve(TOKENS.storage);
    const processorOptions = {
      db: storage.database,
      store: storage.eventStore,
      connectionString: config.storage.databaseUrl,
      acquireLock: storage.acquireLock,
      logger,
    };
    queue = await openQueue(container, config, roles, processorOptions);
    const context: RoleContext = { container, config, logger, overrides, queue, processorOptions, readiness: {} };
    const projector = roles.has('projector') ? await startProjectorRole(context) : null;
    if (projector !== null) others.add('projector', () => projector.stop());
    const worker = roles.has('worker') ? await startWorkerRole(context) : null;
    if (worker !== null) others.add('worker', () => worker.stop());
    if (roles.has('sweeper')) {
      const sweeper = await startSweeperRole(context);
      others.add('sweeper', () => sweeper.stop());
    }
    const apiRole = roles.has('api') ? await startApiRole(context) : null;
    if (apiRole !== null) api.add('api', () => apiRole.stop());
    if (config.mode === 'embedded') {
      // Only this process may open the embedded database, so the CLIs reach it through here.
      const endpoint = await startAdminEndpoint({ directory: config.storage.embeddedDataDir, container, logger });
      others.add('admin endpoint', () => endpoint.stop());
    }
    let stopping: Promise<void> | null = null;
    return {
      url: apiRole?.url ?? null,
      container,
      projections: projector?.projections ?? null,
      relay: worker?.relay ?? null,
      stop: () => (stopping ??= stopAll()),
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The work queue every role shares, registered in the container with the cancellations it broadcasts. */
async function openQueue(
  container: Container,
  config: Config,
  roles: ReadonlySet<Role>,
  processorOptions: CheckpointedProcessorOptions,
): Promise<WorkQueue> {
  const { logger } = processorOptions;
  const settings = {
    natsUrl: config.mode === 'embedded' ? null : config.queue.natsUrl,
    natsStream: config.queue.natsStreamName,
    natsStreamReplicas: config.queue.natsStreamReplicas,
    subjects: WORK_KINDS.map((kind) => workSubject(config, kind)),
    connectionName: `video-download-service:${[...roles].join('+')}`,
  };
  const queue = await openWorkQueue(settings, processorOptions, logger);
  logger.info(
    { mode: config.mode, storage: container.resolve(TOKENS.storage).description, workQueue: queue.kind },
    `Running in ${config.mode} mode`,
  );
  container.value(TOKENS.workQueue, queue);
  container.value(TOKENS.jobCancellations, new BroadcastJobCancellations(queue.broadcast('cancellations'), logger));
  return queue;
}
