import { PROJECTIONS } from '../features/features.js';
import { TOKENS } from '../composition/tokens.js';
import { RELAY_NAME } from '../nats/event-relay.js';
import { StallMonitor } from '../observability/stall-monitor.js';
import type { ApiPart } from '../composition/feature-module.js';
import type { RoleContext } from './role-context.js';

/**
 * What /readyz checks: each backing service answers, on PostgreSQL the processors are not too far behind, and
 * whatever this process's roles and the features' parts check of their own (the work consumers can take work, the
 * live status follows the store).
 */
export function readiness({ container, config, queue, readiness: roles }: RoleContext, parts: readonly ApiPart[]) {
  const db = container.resolve(TOKENS.database);
  const store = container.resolve(TOKENS.eventStore);
  // Stalls are measured on the PostgreSQL event store; EventStoreDB's order does not wait on transactions, nor PGlite's single session.
  const stalls =
    config.mode === 'server' && config.storage.eventStoreUrl === null
      ? new StallMonitor(db, [...PROJECTIONS.map((projection) => projection.name), RELAY_NAME])
      : null;
  stalls?.register(container.resolve(TOKENS.metrics));
  const lagWithinLimit = async () =>
    Object.values((await stalls?.processorLagSeconds()) ?? {}).every(
      (lag) => lag * 1000 <= config.observability.readyMaxLagMs,
    );
  return {
    readinessChecks: {
      postgres: async () => (await db.raw('select 1')) !== undefined,
      eventStore: () => store.ping(),
      [queue.kind === 'jetstream' ? 'nats' : 'workQueue']: () => queue.ping(),
      ...(stalls === null ? {} : { processorLag: lagWithinLimit }),
      ...container.resolve(TOKENS.storage).readinessChecks,
      ...roles,
      ...Object.assign({}, ...parts.map((part) => part.readinessChecks ?? {})),
    },
    readinessDetails: async () =>
      stalls === null
        ? {}
        : {
            processorLagSeconds: await stalls.processorLagSeconds(),
            horizonAgeSeconds: await stalls.horizonAgeSeconds(),
          },
  };
}
