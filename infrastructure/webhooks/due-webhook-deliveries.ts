import type { Clock } from '../../application/ports/clock.js';
import type { WebhookSchedule } from '../../application/webhooks/webhook-schedule.js';

/** One step of a delivery: when to look again, or null once it is over. */
export interface WebhookDeliveryStep {
  step(id: string): Promise<Date | null>;
}

/** Runs the due steps of a feature's stream-kept webhook deliveries, and puts each back for its next look or drops it when done. */
export class DueWebhookDeliveries {
  constructor(
    private readonly deliver: WebhookDeliveryStep,
    private readonly schedule: WebhookSchedule,
    private readonly clock: Clock,
  ) {}

  async runDue(): Promise<void> {
    const due = await this.schedule.due(this.clock.now(), 20);
    await Promise.all(
      due.map(async (id) => {
        const next = await this.deliver.step(id);
        if (next === null) await this.schedule.done(id);
        else await this.schedule.schedule(id, next);
      }),
    );
  }
}
