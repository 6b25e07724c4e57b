import type { WorkConsumer, WorkItem, WorkResult } from '../../application/ports/work-queue.js';
import { type JobMessage, WORK_KINDS } from '../../application/processes/work-routing.js';
import type { WorkHandlerSpec } from '../composition/feature-module.js';
import { WORK_HANDLERS } from '../features/features.js';
import type { RoleContext } from './role-context.js';
import { workSubject } from '../work-queue/work-subject.js';

/** A queue consumer for every kind of work, each with the handler its feature gives. */
export function workConsumers({ container, config, queue }: RoleContext): WorkConsumer[] {
  return WORK_KINDS.map((kind) => {
    const spec = WORK_HANDLERS[kind](container, config);
    const subject = workSubject(config, kind);
    return queue.consumer({
      subject,
      ackWaitMs: config.queue.workAckWaitMs,
      drainTimeoutMs: config.queue.workDrainTimeoutMs,
      concurrency: spec.concurrency,
      maxDeliver: spec.maxDeliver,
      handler: adapt(spec),
    });
  });
}

/** From the queue's terms to the application's: a message body becomes a JobMessage, an outcome an ack or a delayed retry. */
function adapt(spec: WorkHandlerSpec) {
  return async (item: WorkItem): Promise<WorkResult> => {
    const delivery = {
      attempt: item.deliveryCount,
      leaseId: item.deliveryId,
      messageId: item.messageId,
      heartbeat: () => item.heartbeat(),
      signal: item.signal,
    };
    const outcome = await spec.handle(item.data as JobMessage, delivery);
    return outcome.kind === 'done' ? 'ack' : { retryAfterMs: outcome.afterMs };
  };
}
