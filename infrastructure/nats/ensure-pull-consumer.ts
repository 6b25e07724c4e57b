import type { ConsumerConfig, JetStreamManager, NatsError } from 'nats';

const CONSUMER_NOT_FOUND = 10014;

/**
 * Creates the durable consumer, or updates the settings a running one can
 * change (ack wait, max deliver); its filter is fixed by its name.
 */
export async function ensurePullConsumer(
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
