import type { Knex } from 'knex';
import type { JetStreamManager, NatsConnection, Subscription } from 'nats';
import type { Anomalies } from '../../application/ports/anomalies.js';
import type { Logger } from '../../application/ports/logger.js';
import { sleep } from '../system/sleep.js';
import { DEAD_LETTER_TABLE, ensureDeadLetterTable } from '../postgres/dead-letter-table.js';

export { DEAD_LETTER_TABLE };

const RETRY_FIRST_MS = 200;
const RETRY_MAX_MS = 10_000;

/** The JetStream advisories for work that will not be delivered again. */
const ADVISORIES = { MAX_DELIVERIES: 'max_deliveries', MSG_TERMINATED: 'terminated' } as const;

interface ConsumerAdvisory {
  stream: string;
  consumer: string;
  stream_seq: number;
  deliveries?: number;
}

export interface DeadLetterRecorderOptions {
  nc: NatsConnection;
  jsm: JetStreamManager;
  /** Where the `dead_letters` rows go. */
  db: Knex;
  /** The work-queue stream whose consumers' advisories are heard. */
  stream: string;
  anomalies: Anomalies;
  logger: Logger;
}

/**
 * Keeps every message JetStream gives up on (its deliveries ran out, or a
 * handler terminated it) as a row in `dead_letters`, with its body when the
 * stream still has it, and counts it as an anomaly. A message whose
 * deliveries ran out stays in a work queue, so it is deleted once recorded.
 * What the lost work held (a reservation, a running job) is settled by the
 * reconciler; these rows say why.
 */
export class DeadLetterRecorder {
  private subscriptions: Subscription[] = [];
  private readonly pending = new Set<Promise<void>>();
  private stopping = new AbortController();

  constructor(private readonly options: DeadLetterRecorderOptions) {}

  async start(): Promise<void> {
    this.stopping = new AbortController();
    await ensureDeadLetterTable(this.options.db);
    for (const [advisory, reason] of Object.entries(ADVISORIES)) {
      this.subscriptions.push(
        this.options.nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.${advisory}.${this.options.stream}.*`, {
          callback: (error, message) => {
            if (error !== null) return;
            const recording = this.recordUntilStopped(reason, message.json<ConsumerAdvisory>());
            this.pending.add(recording);
            void recording.finally(() => this.pending.delete(recording));
          },
        }),
      );
    }
    await this.options.nc.flush();
  }

  async stop(): Promise<void> {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions = [];
    this.stopping.abort();
    await Promise.allSettled([...this.pending]);
  }

  /**
   * JetStream sends an advisory once: a recording that failed (PostgreSQL out of reach) is tried again, with a growing
   * pause, until it succeeds or the recorder stops, so the message is neither forgotten nor left in the stream.
   */
  private async recordUntilStopped(reason: string, advisory: ConsumerAdvisory): Promise<void> {
    const stop = this.stopping.signal;
    const { logger } = this.options;
    for (let failures = 1; ; failures++) {
      try {
        return await this.record(reason, advisory);
      } catch (error) {
        if (stop.aborted) {
          logger.error({ err: error, reason, streamSeq: advisory.stream_seq }, 'Could not record a dead letter');
          return;
        }
        const delayMs = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(failures - 1, 20));
        logger.warn({ err: error, reason, delayMs }, 'Could not record a dead letter; trying again');
        await sleep(delayMs, stop);
      }
    }
  }

  private async record(reason: string, advisory: ConsumerAdvisory): Promise<void> {
    const { jsm, db, anomalies } = this.options;
    const stored = await jsm.streams.getMessage(advisory.stream, { seq: advisory.stream_seq }).catch(() => null);
    let body: unknown = null;
    try {
      body = stored === null ? null : stored.json();
    } catch {
      body = { text: stored?.string() };
    }
    await db(DEAD_LETTER_TABLE)
      .insert({
        reason,
        stream: advisory.stream,
        consumer: advisory.consumer,
        stream_seq: advisory.stream_seq,
        deliveries: advisory.deliveries ?? null,
        subject: stored?.subject ?? null,
        body: body === null ? null : JSON.stringify(body),
      })
      .onConflict(['stream', 'stream_seq', 'reason'])
      .ignore();
    anomalies.record('dead_letter', {
      reason,
      consumer: advisory.consumer,
      streamSeq: advisory.stream_seq,
      subject: stored?.subject,
      body,
    });
    if (stored !== null) await jsm.streams.deleteMessage(advisory.stream, advisory.stream_seq).catch(() => false);
  }
}
