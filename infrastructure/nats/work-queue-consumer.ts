import {
  AckPolicy,
  type Consumer,
  type ConsumerConfig,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  nanos,
} from 'nats';
import type { Logger } from '../../application/ports/logger.js';
import type { WorkConsumer, WorkConsumerOptions, WorkHandler, WorkItem } from '../../application/ports/work-queue.js';
import { ConsumerLoop } from '../work-queue/consumer-loop.js';
import { consumerSettings } from '../work-queue/consumer-settings.js';
import { ConsumerLeadership } from './consumer-leadership.js';
import { ensurePullConsumer } from './ensure-pull-consumer.js';
import { JetStreamDeliveries } from './jetstream-deliveries.js';
import { untilJetStreamAnswers } from './until-jetstream-answers.js';

export type { WorkHandler, WorkItem };

export interface WorkQueueConsumerOptions extends WorkConsumerOptions {
  js: JetStreamClient;
  jsm: JetStreamManager;
  stream: string;
  logger: Logger;
  /** Default derived from the subject: `work.download` → `work_download`. */
  durableName?: string;
  /**
   * Resolves once the server has answered after a heartbeat was sent (a NATS
   * flush), so that progress counts as confirmed. Without it, heartbeats count as sent.
   */
  confirmHeartbeat?: () => Promise<void>;
  /**
   * How long one pull waits for a message before another is sent. Default 30 s, at least 1 s. A pull is
   * given up at once when the consumer stops, so a long one costs an idle service nothing but a rare request.
   */
  pullExpiresMs?: number;
  /** How long starting waits while JetStream cannot answer (no leader, no quorum); the default of untilJetStreamAnswers. */
  startWaitMs?: number;
}

/**
 * A durable pull consumer on one subject of a work-queue stream (one subject each: such a stream refuses overlapping
 * filters), whose messages the shared consumer loop pulls and handles.
 */
export class WorkQueueConsumer implements WorkConsumer {
  private loop: ConsumerLoop | null = null;
  private readonly leadership = new ConsumerLeadership((consumer, leaderlessMs) =>
    this.options.logger.warn(
      { consumer, leaderlessMs },
      'the work consumer has had no leader for a while, its stream has one: creating it anew',
    ),
  );

  constructor(private readonly options: WorkQueueConsumerOptions) {}

  get taking(): boolean {
    return this.loop?.taking ?? true;
  }

  get durableName(): string {
    return this.options.durableName ?? this.options.subject.replace(/[.*>\s]/g, '_');
  }

  /** Creates or updates the durable consumer (waiting a while if JetStream cannot answer yet), then pulls in the background. */
  async start(): Promise<void> {
    if (this.loop !== null) return;
    const { subject, logger, pullExpiresMs, confirmHeartbeat, startWaitMs } = this.options;
    const durableConsumer = () => this.durableConsumer();
    const consumer = await untilJetStreamAnswers(
      durableConsumer,
      `starting the consumer of ${subject}`,
      logger,
      startWaitMs,
    );
    const source = new JetStreamDeliveries(consumer, {
      logger,
      pullExpiresMs: Math.max(1_000, pullExpiresMs ?? 30_000),
      durableConsumer,
      confirmHeartbeat,
    });
    this.loop = new ConsumerLoop({ ...this.options, source });
    await this.loop.start();
  }

  /** See ConsumerLoop.stop: handlers still running after the drain timeout have their messages handed back. */
  async stop(): Promise<void> {
    const loop = this.loop;
    if (loop === null) return;
    await loop.stop();
    this.loop = null;
  }

  /** Creates the durable consumer, or brings it up to date, and returns it once a leader runs it. */
  private async durableConsumer(): Promise<Consumer> {
    const { js, jsm, stream } = this.options;
    await ensurePullConsumer(jsm, stream, this.consumerConfig());
    return this.leadership.led(jsm, stream, await js.consumers.get(stream, this.durableName));
  }

  private consumerConfig(): Partial<ConsumerConfig> & { durable_name: string } {
    const { ackWaitMs, maxDeliver } = consumerSettings(this.options);
    return {
      durable_name: this.durableName,
      filter_subject: this.options.subject,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ackWaitMs),
      max_deliver: maxDeliver,
    };
  }
}
