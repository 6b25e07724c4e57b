import type { WorkConsumerOptions } from '../../application/ports/work-queue.js';

/** A consumer's options with their defaults, alike on every queue. */
export interface ConsumerSettings {
  concurrency: number;
  maxDeliver: number;
  ackWaitMs: number;
  heartbeatMs: number;
  drainTimeoutMs: number;
}

export function consumerSettings(options: WorkConsumerOptions): ConsumerSettings {
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  return {
    concurrency: Math.max(1, options.concurrency ?? 1),
    maxDeliver: options.maxDeliver ?? 5,
    ackWaitMs,
    heartbeatMs: options.heartbeatMs ?? Math.max(100, Math.floor(ackWaitMs / 3)),
    drainTimeoutMs: options.drainTimeoutMs ?? 30_000,
  };
}
