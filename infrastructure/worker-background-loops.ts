import type { Knex } from 'knex';
import type { DependencyContainer } from 'tsyringe';
import type { Anomalies } from '../application/ports/anomalies.js';
import type { Logger } from '../application/ports/logger.js';
import type { WorkQueue } from '../application/ports/work-queue.js';
import { ReconcilePendingDownloads } from '../application/processes/reconcile-pending-downloads.js';
import { ReconcilePendingLookups } from '../application/processes/reconcile-pending-lookups.js';
import type { Config } from './config/config.js';
import { TOKENS } from './container.js';
import { JetStreamWorkQueue } from './nats/jetstream-work-queue.js';
import type { LedWork } from './system/leader-only.js';
import { PeriodicTask } from './system/periodic-task.js';

/**
 * The worker role's loops that need one instance per deployment, not one per
 * process: the dead-letter recorder (each process would record and count
 * every advisory again) and both reconcilers. Started by the leading worker.
 */
export async function startWorkerBackgroundLoops(container: DependencyContainer, config: Config, queue: WorkQueue, logger: Logger): Promise<LedWork> {
  const started: LedWork[] = [];
  const stopAll = async () => void (await Promise.all(started.map((work) => work.stop())));
  try {
    if (queue instanceof JetStreamWorkQueue) {
      const deadLetters = queue.deadLetterRecorder(container.resolve<Knex>(TOKENS.database), container.resolve<Anomalies>(TOKENS.anomalies));
      await deadLetters.start();
      started.push(deadLetters);
    }
    const reconcile = container.resolve(ReconcilePendingDownloads);
    const reconcileLookups = container.resolve(ReconcilePendingLookups);
    for (const task of [
      new PeriodicTask('reconcile pending downloads', config.jobs.reconcileIntervalMs, () => reconcile.runOnce(), logger),
      new PeriodicTask('reconcile pending lookups', config.jobs.reconcileIntervalMs, () => reconcileLookups.runOnce(), logger),
    ]) {
      task.start();
      started.push(task);
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { stop: stopAll };
}
