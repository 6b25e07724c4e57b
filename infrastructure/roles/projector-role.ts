import { ProjectionRunner } from '../processing/projection-runner.js';
import { FEATURES, PROJECTIONS } from '../features/features.js';
import type { RoleContext } from './role-context.js';
import { startLoops } from './start-loops.js';
import { Stoppables } from './stoppables.js';

export interface ProjectorRole {
  projections: ProjectionRunner;
  stop(): Promise<void>;
}

/** Keeps the read models up to date; a lock per projection keeps one projector active for each. */
export async function startProjectorRole(context: RoleContext): Promise<ProjectorRole> {
  const parts = new Stoppables(context.logger);
  return parts.starting(async () => {
    const projections = new ProjectionRunner(PROJECTIONS, context.processorOptions);
    await projections.start();
    parts.add('projector', () => projections.stop());
    context.readiness.projections = async () => projections.failingProjections().length === 0;
    await startLoops(
      FEATURES.flatMap((feature) => feature.projectorLoops?.(context) ?? []),
      parts,
      'projector loop',
    );
    return { projections, stop: () => parts.stopAll() };
  });
}
