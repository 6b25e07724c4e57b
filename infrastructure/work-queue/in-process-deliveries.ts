import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../../application/ports/logger.js';
import { deadLetterExhaustedWork } from './dead-letter-exhausted-work.js';
import type { Delivery, DeliverySource } from './delivery.js';
import {
  type ClaimedRow,
  type RowScope,
  claimDueRow,
  extendLease,
  msUntilNextRowDue,
  settleRow,
} from './work-queue-rows.js';

export interface InProcessDeliveriesOptions {
  db: Knex;
  logger: Logger;
  scope: RowScope;
  /** Resolves when new work may be due, or after `timeoutMs`. */
  waitForWork(timeoutMs: number, signal: AbortSignal): Promise<void>;
  /** The longest idle wait. */
  pollIntervalMs: number;
  /** Called when a delivery puts its row back. */
  onRequeued?(): void;
  /** How often rows whose last delivery ended without a result are dead-lettered. */
  deadLetterIntervalMs: number;
}

/** The rows of one subject of the work_queue table, each delivery holding its row's lease under a token of its own. */
export class InProcessDeliveries implements DeliverySource {
  private nextDeadLetterCheck = 0;

  constructor(private readonly options: InProcessDeliveriesOptions) {}

  async take(): Promise<Delivery | null> {
    await this.deadLetterExhaustedWhenDue();
    const token = randomUUID();
    const row = await claimDueRow(this.options.db, this.options.scope, token);
    return row === null ? null : this.delivery(row, token);
  }

  /** Until the next row of the subject falls due, or news of work comes, at most the longest idle wait. */
  async waitIdle(stop: AbortSignal): Promise<void> {
    const longest = this.options.pollIntervalMs;
    const dueInMs = await msUntilNextRowDue(this.options.db, this.options.scope).catch(() => null);
    // A few milliseconds late, so the row is due when the loop looks.
    const waitMs = dueInMs === null ? longest : Math.min(longest, Math.max(0, Math.ceil(dueInMs)) + 5);
    await this.options.waitForWork(waitMs, stop);
  }

  private delivery(row: ClaimedRow, token: string): Delivery {
    const { db, scope, logger, onRequeued } = this.options;
    return {
      message: {
        subject: scope.subject,
        data: row.payload,
        deliveryCount: row.deliveries,
        messageId: String(row.id),
        deliveryId: `${row.id}:${row.deliveries}`,
      },
      log: logger.child({ subject: scope.subject, id: row.id, deliveryCount: row.deliveries }),
      extend: () => extendLease(db, scope, row, token),
      async settle(settlement) {
        if (await settleRow(db, row, token, settlement)) onRequeued?.();
      },
    };
  }

  private async deadLetterExhaustedWhenDue(): Promise<void> {
    if (Date.now() < this.nextDeadLetterCheck) return;
    const { db, scope, logger, deadLetterIntervalMs } = this.options;
    this.nextDeadLetterCheck = Date.now() + deadLetterIntervalMs;
    for (const row of await deadLetterExhaustedWork(db, scope.subject, scope.maxDeliver)) {
      logger.error(
        { subject: row.subject, id: row.id, deliveries: row.deliveries, body: row.payload },
        'Work dead-lettered: its last allowed delivery ended without a result',
      );
    }
  }
}
