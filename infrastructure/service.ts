import type { Logger } from '../application/ports/logger.js';
import type { WorkRelay } from '../application/ports/work-queue.js';
import type { ProjectionRunner } from './processing/projection-runner.js';
import type { Container } from './composition/container.js';
import { createContainer } from './composition/create-container.js';
import type { Overrides } from './composition/overrides.js';
import { processorOptions } from './composition/processor-options.js';
import { TOKENS } from './composition/tokens.js';
import type { Config, Role } from './config/config.js';
import { startAdminEndpoint } from './admin/admin-endpoint.js';
import { FEATURES, readFeatureSettings } from './features/features.js';
import { startApiRole } from './roles/api-role.js';
import { checkWiring } from './roles/check-wiring.js';
import { startProjectorRole } from './roles/projector-role.js';
import type { RoleContext } from './roles/role-context.js';
import { Stoppables } from './roles/stoppables.js';
import { startSweeperRole } from './roles/sweeper-role.js';
import { startWorkerRole } from './roles/worker-role.js';

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
  readFeatureSettings(config);
  const { container, close } = await createContainer(config, logger, { overrides, roles });
  // Stopped in this order: the API first, so no new work arrives while the rest winds down.
  const api = new Stoppables(logger);
  const others = new Stoppables(logger);
  const stopAll = async () => {
    await api.stopAll();
    await others.stopAll();
    await close();
  };
  try {
    const context: RoleContext = {
      container,
      config,
      logger,
      overrides,
      queue: container.resolve(TOKENS.workQueue),
      processorOptions: processorOptions(config, container.resolve(TOKENS.storage), logger),
      readiness: {},
    };
    checkWiring(context, roles, FEATURES);
    await (roles.has('api') || roles.has('worker') ? container.resolve(TOKENS.ytDlp)?.detected : undefined);
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
