import type { WorkRelay } from '../../application/ports/work-queue.js';
import { ROUTED_EVENT_TYPES, routeEventToWork } from '../../application/processes/work-routing.js';
import { FEATURES } from '../features/features.js';
import { TOKENS } from '../composition/tokens.js';
import { TemporaryWorkDirs } from '../files/temporary-work-dirs.js';
import { PostgresExclusiveLock } from '../postgres/postgres-exclusive-lock.js';
import { LeaderOnly } from '../system/leader-only.js';
import { startLeaderLoops } from './leader-loops.js';
import type { RoleContext } from './role-context.js';
import { startLoops } from './start-loops.js';
import { Stoppables } from './stoppables.js';
import { workConsumers } from './work-consumers.js';
import { workSubject } from '../work-queue/work-subject.js';

export interface WorkerRole {
  relay: WorkRelay;
  stop(): Promise<void>;
}

/** Relays events to the work queue and runs the work; a lock keeps one relay active per deployment. */
export async function startWorkerRole(context: RoleContext): Promise<WorkerRole> {
  const { container, config, logger, queue } = context;
  const parts = new Stoppables(logger);
  return parts.starting(async () => {
    await removeStaleWorkDirs(context);
    const relay = queue.relay({
      filter: { eventTypes: ROUTED_EVENT_TYPES },
      route: (event) =>
        routeEventToWork(event).map((message) => ({
          subject: workSubject(config, message.kind),
          payload: message.payload,
        })),
    });
    await relay.start();
    parts.add('relay', () => relay.stop());
    context.readiness.relay = async () => !relay.isFailing;
    // Stopped after the work consumers: a download draining at shutdown still runs on its fork server and hears a cancel.
    const ytDlp = container.resolve(TOKENS.ytDlp);
    if (ytDlp !== null)
      await startLoops(
        [ytDlp.selfUpdate, ytDlp.extractor.forks].filter((loop) => loop != null),
        parts,
        'yt-dlp upkeep',
        'last',
      );
    await startLoops(
      FEATURES.flatMap((feature) => feature.workerLoops?.(context) ?? []),
      parts,
      'worker loop',
      'last',
    );
    const consumers = workConsumers(context);
    for (const consumer of consumers) await consumer.start();
    context.readiness.workConsumers = async () => consumers.every((consumer) => consumer.taking);
    // Side by side: each stop waits for its pulls to expire and its handlers to drain, seconds that would add up in turn.
    parts.add('work consumers', async () => void (await Promise.all(consumers.map((consumer) => consumer.stop()))));
    // One worker process of the deployment records dead letters and reconciles; the others stand by.
    const lock = new PostgresExclusiveLock({
      connectionString: config.storage.databaseUrl,
      key: 'worker:background-loops',
      logger,
      acquireLock: context.processorOptions.acquireLock,
    });
    const background = new LeaderOnly('worker background loops', lock, () => startLeaderLoops(context), logger);
    background.start();
    parts.add('worker background loops', () => background.stop());
    return { relay, stop: () => parts.stopAll() };
  });
}

async function removeStaleWorkDirs({ container, logger }: RoleContext): Promise<void> {
  const workDirs = container.resolve(TOKENS.workDirs);
  if (!(workDirs instanceof TemporaryWorkDirs)) return;
  const removed = await workDirs.removeStale();
  if (removed.length > 0) logger.info({ removed }, 'removed work directories left by processes that died');
}
