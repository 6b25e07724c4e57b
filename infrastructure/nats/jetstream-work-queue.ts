import type { Knex } from 'knex';
import type { JetStreamManager, NatsConnection } from 'nats';
import type { Anomalies } from '../../application/ports/anomalies.js';
import type { Logger } from '../../application/ports/logger.js';
import type {
  Broadcast,
  QueueDepth,
  WorkConsumer,
  WorkConsumerOptions,
  WorkQueue,
  WorkRelay,
  WorkRelayOptions,
} from '../../application/ports/work-queue.js';
import type { CheckpointedProcessorOptions } from '../processing/checkpointed-processor.js';
import { connectToNats, ensureWorkQueueStream } from './connection.js';
import { DeadLetterRecorder } from './dead-letter-recorder.js';
import { natsBroadcast } from './nats-broadcast.js';
import { EventRelay } from './event-relay.js';
import { untilJetStreamAnswers } from './until-jetstream-answers.js';
import { WorkQueueConsumer } from './work-queue-consumer.js';

export interface JetStreamWorkQueueOptions {
  url: string;
  /** The work-queue stream; it is created or updated to carry `subjects`. */
  stream: string;
  subjects: string[];
  /** How many servers of a cluster keep the stream; default 1. */
  replicas?: number;
  /** Shown in the server's connection list. */
  connectionName: string;
  logger: Logger;
  /** Where the relay keeps its checkpoint and lock. */
  processor: CheckpointedProcessorOptions;
  /** How long an idle pull waits before another is sent. */
  pullExpiresMs?: number;
  /** How long start-up waits for JetStream to answer; default 60 s. */
  startWaitMs?: number;
  /** How long one JetStream API request (creating the stream or a consumer) waits for its answer; default 5 s. */
  requestTimeoutMs?: number;
}

/** The work queue on a JetStream work-queue stream: one durable pull consumer per subject, fed by the event relay. */
export class JetStreamWorkQueue implements WorkQueue {
  readonly kind = 'jetstream';

  private constructor(
    private readonly connection: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly options: JetStreamWorkQueueOptions,
  ) {}

  /** Connects and ensures the stream, waiting up to `startWaitMs` while JetStream cannot answer. */
  static async open(options: JetStreamWorkQueueOptions): Promise<JetStreamWorkQueue> {
    return untilJetStreamAnswers(
      () => JetStreamWorkQueue.openOnce(options),
      'opening the work queue',
      options.logger,
      options.startWaitMs,
    );
  }

  private static async openOnce(options: JetStreamWorkQueueOptions): Promise<JetStreamWorkQueue> {
    const connection = await connectToNats({ url: options.url, name: options.connectionName, logger: options.logger });
    try {
      // An undefined timeout would replace the client's default rather than keep it.
      const jsm = await connection.jetstreamManager(
        options.requestTimeoutMs === undefined ? {} : { timeout: options.requestTimeoutMs },
      );
      await ensureWorkQueueStream(jsm, {
        name: options.stream,
        subjects: options.subjects,
        replicas: options.replicas,
      });
      return new JetStreamWorkQueue(connection, jsm, options);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  relay(options: WorkRelayOptions): WorkRelay {
    return new EventRelay({ ...this.options.processor, ...options, js: this.connection.jetstream() });
  }

  consumer(options: WorkConsumerOptions): WorkConsumer {
    const { stream, logger, pullExpiresMs, startWaitMs } = this.options;
    // Progress counts only once the server has the extension, so a handler cut off from NATS notices and stops.
    const confirmHeartbeat = () => this.connection.flush();
    return new WorkQueueConsumer({
      ...options,
      js: this.connection.jetstream(),
      jsm: this.jsm,
      stream,
      logger,
      pullExpiresMs,
      startWaitMs,
      confirmHeartbeat,
    });
  }

  /** Records the messages JetStream gives up on (deliveries ran out, or terminated) in `db`. */
  deadLetterRecorder(db: Knex, anomalies: Anomalies): DeadLetterRecorder {
    const { stream, logger } = this.options;
    return new DeadLetterRecorder({ nc: this.connection, jsm: this.jsm, db, stream, anomalies, logger });
  }

  /** A subject under the stream's name, as work subjects are, so deployments sharing a server stay apart. */
  broadcast(channel: string): Broadcast {
    return natsBroadcast(this.connection, `${this.options.stream}.${channel}`);
  }

  async ping(): Promise<boolean> {
    return !this.connection.isClosed() && (await this.connection.rtt()) >= 0;
  }

  /** A work-queue stream keeps a message until it is acknowledged: what it holds per subject, less what workers hold, waits. */
  async depth(): Promise<QueueDepth[]> {
    const info = await this.jsm.streams.info(this.options.stream, { subjects_filter: '>' });
    const held = new Map<string, number>();
    for await (const consumer of this.jsm.consumers.list(this.options.stream)) {
      const subject = consumer.config.filter_subject;
      if (subject !== undefined) held.set(subject, (held.get(subject) ?? 0) + consumer.num_ack_pending);
    }
    const stored = new Map(Object.entries(info.state.subjects ?? {}));
    return [...new Set([...this.options.subjects, ...stored.keys()])].sort().map((subject) => {
      const running = held.get(subject) ?? 0;
      return { subject, waiting: Math.max(0, (stored.get(subject) ?? 0) - running), running };
    });
  }

  async requeue(subject: string, payload: unknown, messageId: string): Promise<void> {
    // The stream's duplicate window drops a second publish of the same id.
    await this.connection.jetstream().publish(subject, JSON.stringify(payload), { msgID: messageId });
  }

  async close(): Promise<void> {
    await this.connection.drain().catch(() => this.connection.close());
  }
}
