import { FairSlots, SlotsFullError } from '../fair-slots.js';

/** While an attempt waits for its turn, the queue is told it is alive this often, so the message is not redelivered meanwhile. */
const HEARTBEAT_WHILE_WAITING_MS = 5_000;

/** An attempt put off because the waiting room is full comes back after this. */
const PUT_OFF_MS = 2_000;
/** The usual put-off of an attempt whose account is at its share (never past the attempt timeout, by which one of its attempts has ended); jittered by half either way. */
const MAX_ACCOUNT_PUT_OFF_MS = 5_000;

export interface WebhookSharesOptions {
  /** Attempts sent at once by this process, across accounts. */
  concurrency: number;
  /** Attempts of one account sent or waiting at once; more are put off. */
  perAccount: number;
  /** One attempt's time limit. */
  attemptTimeoutMs: number;
}

/** Not sent now: hand the message back to the queue for this long. */
export interface PutOff {
  putOffMs: number;
}

/**
 * Shares the webhook sender between accounts, so one account's slow or
 * silent receivers cannot hold every slot: at most `perAccount` attempts of
 * an account in flight (or waiting), and a free slot goes to the waiting
 * account that is sending the least (FairSlots). An attempt that finds its
 * account's share, or the waiting room, full is put off instead of holding
 * a queue slot while it waits; an account at its share waits longer, with
 * jitter, since its share frees only as its own attempts end, and its many
 * messages should not spin through the queue every two seconds.
 */
export class WebhookShares {
  private readonly slots: FairSlots;
  private readonly accountPutOffMs: number;

  constructor(options: WebhookSharesOptions) {
    this.slots = new FairSlots({
      concurrency: options.concurrency,
      maxPerRequester: options.perAccount,
      maxWaiting: options.concurrency,
    });
    this.accountPutOffMs = Math.max(PUT_OFF_MS, Math.min(options.attemptTimeoutMs, MAX_ACCOUNT_PUT_OFF_MS));
  }

  async run<T>(accountId: string, work: () => Promise<T>, heartbeat?: () => void): Promise<{ value: T } | PutOff> {
    const ticker = heartbeat === undefined ? null : setInterval(heartbeat, HEARTBEAT_WHILE_WAITING_MS);
    const stopTicking = () => {
      if (ticker !== null) clearInterval(ticker);
    };
    try {
      const value = await this.slots.run(accountId, () => {
        stopTicking();
        return work();
      });
      return { value };
    } catch (error) {
      if (!(error instanceof SlotsFullError)) throw error;
      if (error.scope === 'everyone') return { putOffMs: PUT_OFF_MS };
      return { putOffMs: Math.round(this.accountPutOffMs * (0.5 + Math.random())) };
    } finally {
      stopTicking();
    }
  }
}
