import { FairSlots, SlotsFullError } from '../fair-slots.js';

/** While an attempt waits for its turn, the queue is told it is alive this often, so the message is not redelivered meanwhile. */
const HEARTBEAT_WHILE_WAITING_MS = 5_000;

export interface WebhookSharesOptions {
  /** Attempts sent at once by this process, across accounts. */
  concurrency: number;
  /** Attempts of one account sent or waiting at once; more are put off. */
  perAccount: number;
}

/**
 * Shares the webhook sender between accounts, so one account's slow or
 * silent receivers cannot hold every slot: at most `perAccount` attempts of
 * an account in flight (or waiting), and a free slot goes to the waiting
 * account that is sending the least (FairSlots). An attempt that finds its
 * account's share, or the waiting room, full is put off (null) instead of
 * holding a queue slot while it waits.
 */
export class WebhookShares {
  private readonly slots: FairSlots;

  constructor(options: WebhookSharesOptions) {
    this.slots = new FairSlots({ concurrency: options.concurrency, maxPerRequester: options.perAccount, maxWaiting: options.concurrency });
  }

  async run<T>(accountId: string, work: () => Promise<T>, heartbeat?: () => void): Promise<T | null> {
    const ticker = heartbeat === undefined ? null : setInterval(heartbeat, HEARTBEAT_WHILE_WAITING_MS);
    const stopTicking = () => {
      if (ticker !== null) clearInterval(ticker);
    };
    try {
      return await this.slots.run(accountId, () => {
        stopTicking();
        return work();
      });
    } catch (error) {
      if (error instanceof SlotsFullError) return null;
      throw error;
    } finally {
      stopTicking();
    }
  }
}
