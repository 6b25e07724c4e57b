import { setMaxListeners } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../../application/ports/logger.js';
import type { WorkConsumer, WorkConsumerOptions, WorkResult } from '../../application/ports/work-queue.js';
import { sleep } from '../system/sleep.js';
import { WORK_QUEUE_TABLE } from './work-queue-schema.js';
import { settlesWithin } from '../system/settles-within.js';
import { runWorkHandler } from './run-work-handler.js';
import { deadLetterExhaustedWork } from './dead-letter-exhausted-work.js';

export interface InProcessWorkConsumerOptions extends WorkConsumerOptions {
  db: Knex;
  logger: Logger;
  /** Resolves when new work may be due (the relay committed some), or after `timeoutMs`. */
  waitForWork(timeoutMs: number, signal: AbortSignal): Promise<void>;
  /**
   * The longest an idle loop sleeps. It wakes at once for new work (the relay
   * announces it) and when the next row of its subject falls due (a delayed
   * retry, an expired lease), so this only bounds the wait for work nobody
   * announced. Default 500 ms.
   */
  pollIntervalMs?: number;
  /** Called when a delivery puts its row back (a retry, a hand-back), so loops that sleep look again. */
  onRequeued?(): void;
  /** How often rows whose last delivery ended without a result are dead-lettered. Default 5 s. */
  deadLetterIntervalMs?: number;
}

interface Claimed {
  id: string;
  payload: unknown;
  deliveries: number;
}

interface InFlight {
  claimed: Claimed;
  token: string;
  abort: AbortController;
  settled: boolean;
}

/**
 * Drains one subject of the work_queue table. A delivery leases its row for
 * the ack wait; heartbeats extend the lease, and an expired lease (a handler
 * that hangs, or a process that died) makes the row deliverable again. A
 * settlement only applies while its lease token still holds, so a handler
 * that outlived its lease cannot ack the redelivered message. A row whose
 * last allowed delivery ended without a result is dead-lettered.
 */
export class InProcessWorkConsumer implements WorkConsumer {
  private readonly inFlight = new Set<InFlight>();
  private stopController: AbortController | null = null;
  private loops: Promise<void>[] = [];
  private nextDeadLetterCheck = 0;
  private claimsFailing = false;

  constructor(private readonly options: InProcessWorkConsumerOptions) {}

  get taking(): boolean {
    return !this.claimsFailing;
  }

  private get ackWaitMs(): number {
    return this.options.ackWaitMs ?? 30_000;
  }

  private get maxDeliver(): number {
    return this.options.maxDeliver ?? 5;
  }

  async start(): Promise<void> {
    if (this.stopController !== null) return;
    const stop = new AbortController();
    this.stopController = stop;
    const loops = Math.max(1, this.options.concurrency ?? 1);
    // Every loop waits on this signal (a claim wait or a retry pause), so more than ten listeners is normal here, not a leak.
    setMaxListeners(2 * loops + 10, stop.signal);
    this.loops = Array.from({ length: loops }, () => this.loop(stop.signal));
  }

  async stop(): Promise<void> {
    const stop = this.stopController;
    if (stop === null) return;
    stop.abort();
    if (!(await settlesWithin(Promise.all(this.loops), this.options.drainTimeoutMs ?? 30_000))) {
      for (const entry of this.inFlight) {
        this.options.logger.warn(
          { subject: this.options.subject, id: entry.claimed.id },
          'Handler still running at shutdown; handing its message back',
        );
        entry.abort.abort();
        await this.settle(entry, 'handback');
      }
    }
    this.stopController = null;
    this.loops = [];
  }

  private async loop(stop: AbortSignal): Promise<void> {
    let failures = 0;
    while (!stop.aborted) {
      let claimed: Claimed | null;
      const token = randomUUID();
      try {
        await this.deadLetterExhaustedWhenDue();
        claimed = await this.claim(token);
        failures = 0;
        this.claimsFailing = false;
      } catch (error) {
        failures += 1;
        this.claimsFailing = true;
        this.options.logger.warn(
          { subject: this.options.subject, failures, err: error },
          'Claiming work failed; retrying',
        );
        await sleep(Math.min(30_000, 500 * 2 ** (failures - 1)), stop);
        continue;
      }
      if (claimed === null) {
        await this.options.waitForWork(await this.idleWaitMs().catch(() => this.longestIdleWaitMs), stop);
        continue;
      }
      const entry: InFlight = { claimed, token, abort: new AbortController(), settled: false };
      if (stop.aborted) {
        await this.settle(entry, 'handback');
        continue;
      }
      await this.handle(entry);
    }
  }

  private async deadLetterExhaustedWhenDue(): Promise<void> {
    if (Date.now() < this.nextDeadLetterCheck) return;
    this.nextDeadLetterCheck = Date.now() + (this.options.deadLetterIntervalMs ?? 5_000);
    for (const row of await deadLetterExhaustedWork(this.options.db, this.options.subject, this.maxDeliver)) {
      this.options.logger.error(
        { subject: row.subject, id: row.id, deliveries: row.deliveries, body: row.payload },
        'Work dead-lettered: its last allowed delivery ended without a result',
      );
    }
  }

  private get longestIdleWaitMs(): number {
    return this.options.pollIntervalMs ?? 500;
  }

  /** Until the next row of the subject falls due (its retry delay or its lease ends), at most the longest idle wait. */
  private async idleWaitMs(): Promise<number> {
    const result = await this.options.db.raw<{ rows: Array<{ due_in_ms: number | string | null }> }>(
      `SELECT EXTRACT(EPOCH FROM min(greatest(available_at, coalesce(leased_until, available_at))) - clock_timestamp()) * 1000 AS due_in_ms
       FROM ${WORK_QUEUE_TABLE} WHERE subject = ? AND deliveries < ?`,
      [this.options.subject, this.maxDeliver],
    );
    const dueInMs = result.rows[0]?.due_in_ms;
    if (dueInMs === null || dueInMs === undefined) return this.longestIdleWaitMs;
    // A few milliseconds late, so the row is due when the loop looks.
    return Math.min(this.longestIdleWaitMs, Math.max(0, Math.ceil(Number(dueInMs))) + 5);
  }

  /** Leases the oldest due row of the subject that still has deliveries left. */
  private async claim(token: string): Promise<Claimed | null> {
    const result = await this.options.db.raw<{ rows: Array<{ id: string; payload: unknown; deliveries: number }> }>(
      `UPDATE ${WORK_QUEUE_TABLE}
       SET deliveries = deliveries + 1, lease_token = ?, leased_until = clock_timestamp() + ? * interval '1 millisecond'
       WHERE id = (
         SELECT id FROM ${WORK_QUEUE_TABLE}
         WHERE subject = ? AND deliveries < ? AND available_at <= clock_timestamp() AND (leased_until IS NULL OR leased_until <= clock_timestamp())
         ORDER BY available_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
       )
       RETURNING id::text, payload, deliveries`,
      [token, this.ackWaitMs, this.options.subject, this.maxDeliver],
    );
    const [row] = result.rows;
    return row === undefined ? null : { id: row.id, payload: row.payload, deliveries: Number(row.deliveries) };
  }

  private async handle(entry: InFlight): Promise<void> {
    const { handler, logger, subject } = this.options;
    const { claimed } = entry;
    this.inFlight.add(entry);
    const log = logger.child({ subject, id: claimed.id, deliveryCount: claimed.deliveries });
    // As on JetStream: the lease is extended only after progress, and a handler whose progress went unconfirmed for a
    // whole ack wait is aborted, since its message is then delivered to another handler.
    let progressed = false;
    let confirmedAt = Date.now();
    const heartbeat = () => {
      progressed = true;
    };
    const extendAfterProgress = () => {
      if (entry.settled) return;
      if (Date.now() - confirmedAt > this.ackWaitMs) {
        entry.abort.abort(new Error('No progress was confirmed for a whole ack wait'));
        return;
      }
      if (!progressed) return;
      progressed = false;
      this.options.db
        .raw(
          `UPDATE ${WORK_QUEUE_TABLE} SET leased_until = clock_timestamp() + ? * interval '1 millisecond' WHERE id = ? AND lease_token = ?`,
          [this.ackWaitMs, claimed.id, entry.token],
        )
        .then(() => {
          confirmedAt = Date.now();
        })
        .catch((error: unknown) => log.warn({ err: error }, 'Could not extend the lease'));
    };
    const timer = setInterval(
      extendAfterProgress,
      this.options.heartbeatMs ?? Math.max(100, Math.floor(this.ackWaitMs / 3)),
    );
    const isLastAttempt = claimed.deliveries >= this.maxDeliver;
    try {
      const item = {
        subject,
        data: claimed.payload,
        deliveryCount: claimed.deliveries,
        messageId: String(claimed.id),
        deliveryId: `${claimed.id}:${claimed.deliveries}`,
        isLastAttempt,
        heartbeat,
        signal: entry.abort.signal,
      };
      const result = await runWorkHandler(handler, item, this.options.errorRetry, log);
      await this.settle(entry, result);
    } finally {
      clearInterval(timer);
      this.inFlight.delete(entry);
    }
  }

  private async settle(entry: InFlight, result: WorkResult | 'handback'): Promise<void> {
    if (entry.settled) return;
    entry.settled = true;
    const { db } = this.options;
    const where = { id: entry.claimed.id, lease_token: entry.token };
    try {
      if (result === 'ack' || result === 'terminate') {
        await db(WORK_QUEUE_TABLE).where(where).delete();
      } else {
        const delayMs = result === 'handback' ? 0 : Math.max(0, Math.round(result.retryAfterMs));
        await db(WORK_QUEUE_TABLE)
          .where(where)
          .update({
            lease_token: null,
            leased_until: null,
            available_at: db.raw(`clock_timestamp() + ? * interval '1 millisecond'`, [delayMs]),
          });
        this.options.onRequeued?.();
      }
    } catch (error) {
      this.options.logger.warn(
        { subject: this.options.subject, id: entry.claimed.id, err: error },
        'Could not settle the message; it will be delivered again when its lease runs out',
      );
    }
  }
}
