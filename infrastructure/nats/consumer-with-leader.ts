import { type Consumer, ErrorCode, type JetStreamManager, NatsError } from 'nats';

/**
 * Returns the consumer once a leader runs it, and otherwise fails as JetStream does when it cannot answer, so
 * start-up waits. A cluster's metadata leader that has just lost its quorum keeps answering for a consumer whose
 * creation it could not get agreed, with its settings but no leader behind it: such a consumer gives out nothing.
 */
export async function consumerWithLeader(jsm: JetStreamManager, stream: string, consumer: Consumer): Promise<Consumer> {
  const [info, streamInfo] = await Promise.all([consumer.info(true), jsm.streams.info(stream)]);
  // A lone server reports no cluster, for a stream and its consumers alike.
  if (streamInfo.cluster === undefined || info.cluster?.leader) return consumer;
  throw new NatsError(`Consumer ${info.name} on ${stream} has no leader yet`, ErrorCode.JetStreamNotEnabled);
}
