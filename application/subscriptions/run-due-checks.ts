import type { Clock } from '../ports/clock.js';
import type { RunSubscriptionCheck } from './run-subscription-check.js';
import type { SubscriptionReadModel } from './subscription-read-model.js';

export interface RunDueChecksOptions {
  /** A check started this long ago without an end is run again: its worker is gone. */
  takeOverAfterMs: number;
  /** Checks taken per round; the rest wait for the next round. */
  perRound: number;
}

/**
 * The subscriptions' scheduler, run by one worker of the deployment at a
 * time: each round runs the checks that are due, soonest first, one after
 * another, so checks are paced (each is a yt-dlp listing, under the
 * platform's own spacing and back-off). Each check is claimed in its
 * subscription's stream, so a leader that changes mid-round runs none twice.
 */
export class RunDueChecks {
  constructor(
    private readonly schedule: SubscriptionReadModel,
    private readonly check: RunSubscriptionCheck,
    private readonly clock: Clock,
    private readonly options: RunDueChecksOptions,
  ) {}

  /** The number of checks run this round. */
  async runDue(): Promise<number> {
    const now = this.clock.now();
    const staleBefore = new Date(now.getTime() - this.options.takeOverAfterMs);
    const due = await this.schedule.due(now, staleBefore, this.options.perRound);
    let ran = 0;
    for (const { subscriptionId } of due) if (await this.check.run(subscriptionId)) ran += 1;
    return ran;
  }
}
