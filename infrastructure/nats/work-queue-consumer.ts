import { randomBytes } from 'node:crypto';
import {
  AckPolicy,
  type Consumer,
  type ConsumerConfig,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsError,
  nanos,
} from 'nats';
import type { Logger } from '../../application/ports/logger.js';
import type { WorkConsumer, WorkHandler, WorkItem, WorkResult } from '../../application/ports/work-queue.js';
import { sleep } from '../system/sleep.js';
import { settlesWithin } from '../system/settles-within.js';
import { consumerWithLeader } from './consumer-with-leader.js';
import { untilJetStreamAnswers } from './until-jetstream-answers.js';
import { runWorkHandler } from '../work-queue/run-work-handler.js';

export type { WorkHandler, WorkItem, WorkResult };

export interface WorkQueueConsumerOptions {
  js: JetStreamClient;
  jsm: JetStreamManager;
  stream: string;
  /** One subject per consumer: a work-queue stream refuses overlapping filters. */
  subject: string;
  handler: WorkHandler;
  logger: Logger;
  /** Default derived from the subject: `work.download` → `work_download`. */
  durableName?: string;
  /** Default 30 s. */
  ackWaitMs?: number;
  /** Deliveries per message, the first included. Default 5. */
  maxDeliver?: number;
  /** Messages handled at once by this instance. Default 1. */
  concurrency?: number;
  /** Least time between two extensions of the ack wait. Default a third of ackWaitMs. */
  heartbeatMs?: number;
  /**
   * Resolves once the server has answered after a heartbeat was sent (a NATS
   * flush), so that progress counts as confirmed. Without it, heartbeats count as sent.
   */
  confirmHeartbeat?: () => Promise<void>;
  /** Redelivery delay after the handler throws, doubling per delivery. Default 1 s up to 60 s. */
  errorRetry?: { initialDelayMs: number; maxDelayMs: number };
  /**
   * How long one pull waits for a message before another is sent. Default 30 s, at least 1 s. A pull is
   * given up at once when the consumer stops, so a long one costs an idle service nothing but a rare request.
   */
  pullExpiresMs?: number;
  /** How long stop() lets handlers finish before handing their messages back. Default 30 s. */
  drainTimeoutMs?: number;
}

interface InFlight {
  message: JsMsg;
  abort: AbortController;
  settled: boolean;
  /** The ack wait ran out with no progress confirmed: the server has given the message out again. */
  lapsed?: boolean;
}

const CONSUMER_NOT_FOUND = 10014;

/**
 * One message, or null once `expires` passes or `stop` aborts. A fetch of one rather than `next()`: its pull can be
 * ended early, so stopping never waits out an idle pull, and the pull can last long.
 */
async function pullOne(consumer: Consumer, expires: number, stop: AbortSignal): Promise<JsMsg | null> {
  const pull = await consumer.fetch({ max_messages: 1, expires });
  const end = () => pull.stop();
  stop.addEventListener('abort', end, { once: true });
  // A stop that came while the pull was being sent has already fired.
  if (stop.aborted) end();
  try {
    for await (const message of pull) return message;
    return null;
  } finally {
    stop.removeEventListener('abort', end);
  }
}

/**
 * A durable pull consumer on one subject of a work-queue stream. It pulls one
 * message at a time and only while one of its `concurrency` handler slots is
 * free, so no message waits in a local buffer while its ack-wait runs out.
 */
export class WorkQueueConsumer implements WorkConsumer {
  private readonly inFlight = new Set<InFlight>();
  private stopController: AbortController | null = null;
  private pulling: Promise<void> = Promise.resolve();
  private pullsFailing = false;

  constructor(private readonly options: WorkQueueConsumerOptions) {}

  get taking(): boolean {
    return !this.pullsFailing;
  }

  get durableName(): string {
    return this.options.durableName ?? this.options.subject.replace(/[.*>\s]/g, '_');
  }

  /** Creates or updates the durable consumer (waiting a while if JetStream cannot answer yet), then pulls in the background. */
  async start(): Promise<void> {
    if (this.stopController !== null) return;
    const consumer = await untilJetStreamAnswers(
      () => this.durableConsumer(),
      `starting the consumer of ${this.options.subject}`,
      this.options.logger,
    );
    const stop = new AbortController();
    this.stopController = stop;
    this.pulling = this.pullLoop(consumer, stop.signal, Math.max(1, this.options.concurrency ?? 1));
  }

  /**
   * Stops pulling and waits for the handlers under way. Those still running
   * after `drainTimeoutMs` have their signal aborted and their message handed
   * back at once for another instance, rather than after the ack wait.
   */
  async stop(): Promise<void> {
    const stop = this.stopController;
    if (stop === null) return;
    stop.abort();
    if (!(await settlesWithin(this.pulling, this.options.drainTimeoutMs ?? 30_000))) {
      for (const entry of this.inFlight) {
        this.options.logger.warn(
          { subject: entry.message.subject, seq: entry.message.seq },
          'Handler still running at shutdown; handing its message back',
        );
        entry.abort.abort();
        this.settle(entry, 'handback');
      }
    }
    this.stopController = null;
    this.pulling = Promise.resolve();
  }

  /** Creates the durable consumer, or brings it up to date, and returns it once a leader runs it. */
  private async durableConsumer(): Promise<Consumer> {
    const { js, jsm, stream } = this.options;
    await ensurePullConsumer(jsm, stream, this.consumerConfig());
    return consumerWithLeader(jsm, stream, await js.consumers.get(stream, this.durableName));
  }

  private consumerConfig(): Partial<ConsumerConfig> & { durable_name: string } {
    return {
      durable_name: this.durableName,
      filter_subject: this.options.subject,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(this.options.ackWaitMs ?? 30_000),
      max_deliver: this.options.maxDeliver ?? 5,
    };
  }

  /**
   * One pull at a time, and only while a handler slot is free: an idle consumer keeps one pull open whatever its
   * concurrency (an idle service pulled once per slot, dozens of times every few seconds), and a busy one none.
   */
  private async pullLoop(durable: Consumer, stop: AbortSignal, slots: number): Promise<void> {
    let consumer = durable;
    const { logger } = this.options;
    const expires = Math.max(1_000, this.options.pullExpiresMs ?? 30_000);
    const running = new Set<Promise<void>>();
    let failures = 0;
    while (!stop.aborted) {
      if (running.size >= slots) {
        await Promise.race(running);
        continue;
      }
      let message: JsMsg | null;
      try {
        message = await pullOne(consumer, expires, stop);
        failures = 0;
        this.pullsFailing = false;
      } catch (error) {
        failures += 1;
        this.pullsFailing = true;
        logger.warn({ subject: this.options.subject, failures, err: error }, 'Pulling work failed; retrying');
        await sleep(Math.min(30_000, 500 * 2 ** (failures - 1)), stop);
        // The durable consumer may be gone (deleted, or a NATS server restarted without its storage): made again.
        consumer = await this.durableConsumer().catch(() => consumer);
        continue;
      }
      if (message === null) continue;
      if (stop.aborted) {
        // Pulled while stopping: let another instance have it now.
        message.nak();
        continue;
      }
      const handled: Promise<void> = this.handle(message)
        .catch((error: unknown) => logger.error({ subject: this.options.subject, err: error }, 'Handling work failed'))
        .finally(() => running.delete(handled));
      running.add(handled);
    }
    await Promise.all(running);
  }

  private async handle(message: JsMsg): Promise<void> {
    const { handler, logger } = this.options;
    const entry: InFlight = { message, abort: new AbortController(), settled: false };
    this.inFlight.add(entry);
    const deliveryCount = message.info.deliveryCount;
    const maxDeliver = this.options.maxDeliver ?? 5;
    const log = logger.child({ subject: message.subject, seq: message.seq, deliveryCount });
    const ackWaitMs = this.options.ackWaitMs ?? 30_000;
    let progressed = false;
    let confirmedAt = Date.now();
    const extendAckWait = () => {
      if (entry.settled || !progressed) return;
      progressed = false;
      const sentAt = Date.now();
      try {
        message.working();
      } catch (error) {
        // A closed connection: the message will be redelivered after the ack wait anyway.
        log.warn({ err: error }, 'Could not extend the ack wait');
        return;
      }
      const confirmed = this.options.confirmHeartbeat?.() ?? Promise.resolve();
      confirmed.then(
        () => {
          confirmedAt = Math.max(confirmedAt, sentAt);
        },
        (error: unknown) => log.warn({ err: error }, 'Could not confirm the ack wait extension'),
      );
    };
    const heartbeatMs = this.options.heartbeatMs ?? Math.max(100, Math.floor(ackWaitMs / 3));
    const watchdog = () => {
      extendAckWait();
      if (entry.settled || entry.abort.signal.aborted || Date.now() - confirmedAt <= ackWaitMs) return;
      log.error(
        { ackWaitMs },
        'No progress confirmed for a whole ack wait: the message goes to another worker, so this handler stops',
      );
      entry.lapsed = true;
      entry.abort.abort(new Error('The delivery lapsed: no progress was confirmed within the ack wait'));
    };
    const timer = setInterval(watchdog, Math.min(heartbeatMs, Math.max(50, Math.floor(ackWaitMs / 4))));
    const heartbeat = () => {
      progressed = true;
    };
    try {
      let data: unknown;
      try {
        data = message.json();
      } catch (error) {
        log.error({ err: error }, 'Work message is not JSON; dropping it');
        await this.settle(entry, 'terminate');
        return;
      }
      const item = {
        subject: message.subject,
        data,
        deliveryCount,
        messageId: String(message.seq),
        // The server may report the same delivery count twice (after a lapse, or a closed connection), so a nonce keeps deliveries apart.
        deliveryId: `${message.seq}:${deliveryCount}:${randomBytes(4).toString('hex')}`,
        isLastAttempt: maxDeliver > 0 && deliveryCount >= maxDeliver,
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
    const { message } = entry;
    // A lapsed delivery's message is already out again, and that delivery settles it: this one's ack could end a
    // redelivery still at work (nothing would follow if its worker died), and a retry would send the message twice.
    // Should the lapse have been a false alarm, the message comes back after the ack wait and finds its work done.
    if (entry.lapsed === true) return;
    try {
      if (result === 'ack') {
        // Confirmed, so a lost ack is at least logged.
        await message.ackAck();
      } else if (result === 'terminate') {
        message.term();
      } else if (result === 'handback') {
        message.nak();
      } else {
        message.nak(Math.max(0, Math.round(result.retryAfterMs)));
      }
    } catch (error) {
      const outcome = typeof result === 'string' ? result : 'retry';
      this.options.logger.warn(
        { subject: message.subject, seq: message.seq, outcome, err: error },
        'Could not settle the message; it will be delivered again after the ack wait',
      );
    }
  }
}

/**
 * Creates the durable consumer, or updates the settings a running one can
 * change (ack wait, max deliver); its filter is fixed by its name.
 */
async function ensurePullConsumer(
  jsm: JetStreamManager,
  stream: string,
  config: Partial<ConsumerConfig> & { durable_name: string },
): Promise<void> {
  try {
    const info = await jsm.consumers.info(stream, config.durable_name);
    if (info.config.filter_subject !== config.filter_subject) {
      throw new Error(
        `Consumer ${config.durable_name} on ${stream} filters ${info.config.filter_subject ?? 'everything'}, not ${config.filter_subject ?? 'everything'}`,
      );
    }
    if (info.config.ack_wait !== config.ack_wait || info.config.max_deliver !== config.max_deliver) {
      await jsm.consumers.update(stream, config.durable_name, {
        ack_wait: config.ack_wait,
        max_deliver: config.max_deliver,
      });
    }
  } catch (error) {
    if ((error as NatsError).api_error?.err_code !== CONSUMER_NOT_FOUND) throw error;
    await jsm.consumers.add(stream, config);
  }
}
