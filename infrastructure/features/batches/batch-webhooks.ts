import type { BatchWebhookSchedule } from '../../../application/batches/batch-webhook-schedule.js';
import type { DeliverBatchWebhook } from '../../../application/batches/deliver-batch-webhook.js';
import type { Clock } from '../../../application/ports/clock.js';

/** Runs the due steps of the `batch.finished` deliveries, and puts each back for its next look or drops it when done. */
export class BatchWebhooks {
  constructor(
    private readonly deliver: DeliverBatchWebhook,
    private readonly schedule: BatchWebhookSchedule,
    private readonly clock: Clock,
  ) {}

  async runDue(): Promise<void> {
    const due = await this.schedule.due(this.clock.now(), 20);
    await Promise.all(
      due.map(async (batchId) => {
        const next = await this.deliver.step(batchId);
        if (next === null) await this.schedule.done(batchId);
        else await this.schedule.schedule(batchId, next);
      }),
    );
  }
}
