import type { Loop } from '../composition/feature-module.js';
import { FEATURES } from '../features/features.js';
import { TOKENS } from '../composition/tokens.js';
import { JetStreamWorkQueue } from '../nats/jetstream-work-queue.js';
import type { LedWork } from '../system/leader-only.js';
import type { RoleContext } from './role-context.js';

/**
 * The worker role's loops that need one instance per deployment, not one per process: the
 * dead-letter recorder (each process would record and count every advisory again) and the
 * features' reconcilers. Started by the leading worker.
 */
export async function startLeaderLoops(context: RoleContext): Promise<LedWork> {
  const { container, queue } = context;
  const started: Loop[] = [];
  const stopAll = async () => void (await Promise.all(started.map((loop) => loop.stop())));
  const deadLetters =
    queue instanceof JetStreamWorkQueue
      ? [queue.deadLetterRecorder(container.resolve(TOKENS.database), container.resolve(TOKENS.anomalies))]
      : [];
  try {
    for (const loop of [...deadLetters, ...FEATURES.flatMap((feature) => feature.leaderLoops?.(context) ?? [])]) {
      await loop.start();
      started.push(loop);
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { stop: stopAll };
}
