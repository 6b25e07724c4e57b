import type { Loop } from '../composition/feature-module.js';
import { FEATURES } from '../features/features.js';
import { TOKENS } from '../composition/tokens.js';
import type { LedWork } from '../system/leader-only.js';
import type { RoleContext } from './role-context.js';

/**
 * The worker role's loops that need one instance per deployment, not one per process: the
 * dead-letter recorder (each process would record and count every advisory again) and the
 * features' reconcilers. Started by the leading worker.
 */
export async function startLeaderLoops(context: RoleContext): Promise<LedWork> {
  const { queue } = context;
  const started: Loop[] = [];
  const stopAll = async () => void (await Promise.all(started.map((loop) => loop.stop())));
  const deadLetters = queue.kind === 'jetstream' ? [await deadLetterRecorder(context)] : [];
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

/** JetStream's advisories of messages it gave up on, recorded; loaded only with JetStream, like the queue itself. */
async function deadLetterRecorder({ container, queue }: RoleContext): Promise<Loop> {
  const { JetStreamWorkQueue } = await import('../nats/jetstream-work-queue.js');
  if (!(queue instanceof JetStreamWorkQueue)) throw new Error(`a ${queue.kind} work queue has no dead letters`);
  return queue.deadLetterRecorder(container.resolve(TOKENS.database), container.resolve(TOKENS.anomalies));
}
