import { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import type { RecordedEvent } from '../../application/ports/event-store.js';
import type { Logger } from '../../application/ports/logger.js';
import type {
  Broadcast,
  QueueDepth,
  WorkConsumer,
  WorkConsumerOptions,
  WorkQueue,
  WorkRelay,
  WorkRelayOptions,
} from '../../application/ports/work-queue.js';
import { CheckpointedProcessor, type CheckpointedProcessorOptions } from '../processing/checkpointed-processor.js';
import { ensureDeadLetterTable } from '../postgres/dead-letter-table.js';
import { WakeSignal } from '../system/wake-signal.js';
import { inProcessBroadcast } from './in-process-broadcast.js';
import { InProcessWorkConsumer } from './in-process-work-consumer.js';
import { relayMessageId } from './relay-message-id.js';
import { WORK_QUEUE_TABLE, ensureWorkQueueTable } from './work-queue-schema.js';

export interface InProcessWorkQueueOptions {
  /** Where the relay keeps its checkpoint and lock, and where the queue's table lives. */
  processor: CheckpointedProcessorOptions;
  logger: Logger;
  /**
   * This process is the only one using the table (the embedded database):
   * leases left by an earlier process are released at once on open, so a job
   * cut short by a crash resumes at start rather than after the ack wait.
   */
  exclusive: boolean;
  /**
   * The longest an idle consumer sleeps without news. Every writer of an
   * exclusive queue is in this process and wakes the consumers (new work, a
   * retry put back, the next row falling due), so this is only a slow
   * safety net there: 5 min; 500 ms otherwise.
   */
  pollIntervalMs?: number;
}

/**
 * The work queue in the service's own database, for the embedded mode. The
 * relay is a projection into the work_queue table: its rows and its
 * checkpoint commit together, so pending work is exactly what the event
 * store set off and was not yet acknowledged, across any restart.
 */
export class InProcessWorkQueue implements WorkQueue {
  private readonly broadcasts = new EventEmitter();
  readonly kind = 'in-process';
  private readonly news = new WakeSignal();

  private constructor(private readonly options: InProcessWorkQueueOptions) {}

  static async open(options: InProcessWorkQueueOptions): Promise<InProcessWorkQueue> {
    const { db } = options.processor;
    await ensureWorkQueueTable(db);
    await ensureDeadLetterTable(db);
    if (options.exclusive) {
      const released = await db(WORK_QUEUE_TABLE)
        .whereNotNull('lease_token')
        .update({ lease_token: null, leased_until: null });
      if (released > 0) options.logger.info({ released }, 'Released the work a stopped process left under way');
    }
    return new InProcessWorkQueue(options);
  }

  relay(options: WorkRelayOptions): WorkRelay {
    const { route } = options;
    const wake = () => this.news.wakeAll();
    return new CheckpointedProcessor(
      {
        name: options.name ?? 'relay:work',
        filter: options.filter ?? {},
        async apply(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void> {
          const rows = events.flatMap((event) =>
            route(event).map((message, index, all) => ({
              message_id: relayMessageId(event, index, all.length),
              subject: message.subject,
              payload: JSON.stringify(message.payload),
            })),
          );
          if (rows.length === 0) return;
          await trx(WORK_QUEUE_TABLE).insert(rows).onConflict('message_id').ignore();
          // Consumers are woken once the rows are committed, not before.
          trx.executionPromise.then(wake, () => undefined);
        },
      },
      this.options.processor,
    );
  }

  broadcast(channel: string): Broadcast {
    return inProcessBroadcast(this.broadcasts, channel);
  }

  consumer(options: WorkConsumerOptions): WorkConsumer {
    return new InProcessWorkConsumer({
      ...options,
      db: this.options.processor.db,
      logger: this.options.logger,
      pollIntervalMs: this.options.pollIntervalMs ?? (this.options.exclusive ? 300_000 : 500),
      onRequeued: () => this.news.wakeAll(),
      waitForWork: async (timeoutMs, signal) => void (await this.news.wait(timeoutMs, signal)),
    });
  }

  async ping(): Promise<boolean> {
    try {
      await this.options.processor.db.raw('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async depth(): Promise<QueueDepth[]> {
    const { rows } = await this.options.processor.db.raw<{
      rows: Array<{ subject: string; waiting: number; running: number }>;
    }>(
      `SELECT subject,
              count(*) FILTER (WHERE leased_until IS NULL OR leased_until <= clock_timestamp())::int AS waiting,
              count(*) FILTER (WHERE leased_until > clock_timestamp())::int AS running
         FROM ${WORK_QUEUE_TABLE} GROUP BY subject ORDER BY subject`,
    );
    return rows;
  }

  async requeue(subject: string, payload: unknown, messageId: string): Promise<void> {
    await this.options.processor
      .db(WORK_QUEUE_TABLE)
      .insert({ message_id: messageId, subject, payload: JSON.stringify(payload) })
      .onConflict('message_id')
      .ignore();
    this.news.wakeAll();
  }

  async close(): Promise<void> {
    this.news.wakeAll();
  }
}
