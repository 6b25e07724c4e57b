import { FEATURES } from '../features/features.js';
import type { RoleContext } from './role-context.js';
import { startLoops } from './start-loops.js';
import { Stoppables } from './stoppables.js';

/** Deletes what has outlived its retention; each sweeper takes a lock, so one runs per deployment. */
export async function startSweeperRole(context: RoleContext): Promise<{ stop(): Promise<void> }> {
  const parts = new Stoppables(context.logger);
  return parts.starting(async () => {
    await startLoops(
      FEATURES.flatMap((feature) => feature.sweeperLoops?.(context) ?? []),
      parts,
      'sweeper',
    );
    return { stop: () => parts.stopAll() };
  });
}
