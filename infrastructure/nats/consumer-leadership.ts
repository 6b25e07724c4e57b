import { type Consumer, ErrorCode, type JetStreamManager, NatsError } from 'nats';

/** How long a consumer may stay without a leader while its stream has one before it is created anew. */
const LEADERLESS_REPLACE_MS = 15_000;

/**
 * Returns a durable consumer once a leader runs it, and otherwise fails as JetStream does when it cannot answer, so
 * start-up waits. A cluster's metadata leader that has just lost its quorum keeps answering for a consumer whose
 * creation it could not get agreed, with its settings but no leader behind it: such a consumer gives out nothing. Once
 * the quorum is back it may never elect a leader (seen: only that old leader knew of it, the new one did not), so a
 * consumer found without one for LEADERLESS_REPLACE_MS while its stream is led is deleted, for the next attempt to
 * create it afresh. Nothing is lost: a work-queue stream keeps every message until it is acknowledged, and a consumer
 * without a leader had none out.
 */
export class ConsumerLeadership {
  private leaderlessSince: number | null = null;

  constructor(
    private readonly onReplace: (consumer: string, leaderlessMs: number) => void,
    private readonly replaceAfterMs = LEADERLESS_REPLACE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async led(jsm: JetStreamManager, stream: string, consumer: Consumer): Promise<Consumer> {
    const [info, streamInfo] = await Promise.all([consumer.info(true), jsm.streams.info(stream)]);
    // A lone server reports no cluster, for a stream and its consumers alike.
    if (streamInfo.cluster === undefined || info.cluster?.leader) {
      this.leaderlessSince = null;
      return consumer;
    }
    this.leaderlessSince ??= this.now();
    const leaderlessMs = this.now() - this.leaderlessSince;
    if (streamInfo.cluster.leader && leaderlessMs >= this.replaceAfterMs) {
      this.leaderlessSince = null;
      this.onReplace(info.name, leaderlessMs);
      await jsm.consumers.delete(stream, info.name);
    }
    throw new NatsError(`Consumer ${info.name} on ${stream} has no leader yet`, ErrorCode.JetStreamNotEnabled);
  }
}
