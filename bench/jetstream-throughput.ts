import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from '../application/ports/logger.js';
import { PostgresEventStore } from '../infrastructure/event-store/postgres/postgres-event-store.js';
import { JetStreamWorkQueue } from '../infrastructure/nats/jetstream-work-queue.js';
import { createKnex } from '../infrastructure/postgres/create-knex.js';
import type { CheckpointedProcessorOptions } from '../infrastructure/processing/checkpointed-processor.js';
import { createTestDatabase } from '../test/support/postgres.js';
import { QUICK } from './settings.js';
import { startNatsCluster } from './soak/own-nats-cluster.js';
import { OwnNats } from './soak/own-nats.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };
/** Messages in flight at once, published and handled. */
const IN_FLIGHT = 256;

interface Throughput {
  publishedPerSecond: number;
  /** From the first publish to the last acknowledgement. */
  handledPerSecond: number;
}

/**
 * The work queue's own throughput, as the service uses it (publishes with a message id for the duplicate window, a
 * durable pull consumer, explicit acks): on a stream kept by three servers of a cluster on loopback, against one
 * server in the same run, rounds alternating. The servers run in processes of their own; this process is the client.
 */
export async function benchJetStreamThroughput(): Promise<void> {
  const messages = QUICK ? 2_000 : 20_000;
  const runDir = await mkdtemp(path.join(tmpdir(), 'bench-jetstream-'));
  const database = await createTestDatabase('bench_jetstream');
  const db = createKnex(database.url);
  // The queue's relay would use these; the bench publishes and consumes only.
  const store = new PostgresEventStore({ connectionString: database.url });
  const processor: CheckpointedProcessorOptions = { db, store, connectionString: database.url, logger: silent };
  const single = await OwnNats.start(runDir, 'nats-single');
  const cluster = await startNatsCluster(runDir);
  const clusterUrl = cluster.map((node) => node.url).join(',');
  try {
    const results: { single: Throughput[]; cluster: Throughput[] } = { single: [], cluster: [] };
    for (let round = 0; round < (QUICK ? 1 : 3); round += 1) {
      const order = round % 2 === 0 ? (['single', 'cluster'] as const) : (['cluster', 'single'] as const);
      for (const side of order) {
        const url = side === 'single' ? single.url : clusterUrl;
        results[side].push(await measure(url, side === 'single' ? 1 : 3, messages, processor));
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    const summary = (side: Throughput[]) => ({
      published: median(side.map((result) => result.publishedPerSecond)),
      handled: median(side.map((result) => result.handledPerSecond)),
    });
    const one = summary(results.single);
    const three = summary(results.cluster);
    console.log(
      `jetstream (${messages} work messages, ${IN_FLIGHT} in flight, median of ${results.single.length}): 3-node cluster, 3 replicas: published ${Math.round(three.published)}/s, handled ${Math.round(three.handled)}/s; one server: published ${Math.round(one.published)}/s, handled ${Math.round(one.handled)}/s; ratio published ${(three.published / one.published).toFixed(2)}, handled ${(three.handled / one.handled).toFixed(2)}`,
    );
  } finally {
    await Promise.all([single, ...cluster].map((node) => node.kill()));
    await store.close();
    await db.destroy();
    await database.drop();
    await rm(runDir, { recursive: true, force: true });
  }
}

async function measure(
  url: string,
  replicas: number,
  messages: number,
  processor: CheckpointedProcessorOptions,
): Promise<Throughput> {
  // A stream and subject of their own per measurement: two streams on one server may not share a subject.
  const suffix = randomBytes(4).toString('hex');
  const subject = `bench.work.${suffix}`;
  const queue = await JetStreamWorkQueue.open({
    url,
    stream: `BENCH_${suffix.toUpperCase()}`,
    subjects: [subject],
    replicas,
    connectionName: 'bench-jetstream',
    logger: silent,
    processor,
  });
  let handled = 0;
  let allHandled: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    allHandled = resolve;
  });
  const consumer = queue.consumer({
    subject,
    concurrency: IN_FLIGHT,
    handler: async () => {
      handled += 1;
      if (handled === messages) allHandled();
      return 'ack';
    },
  });
  try {
    await consumer.start();
    const started = performance.now();
    const prefix = randomBytes(4).toString('hex');
    for (let sent = 0; sent < messages; sent += IN_FLIGHT) {
      const batch = Array.from({ length: Math.min(IN_FLIGHT, messages - sent) }, (_, index) => sent + index);
      await Promise.all(
        batch.map((number) =>
          queue.requeue(subject, { jobId: `${prefix}-${number}`, accountId: prefix }, `${prefix}-${number}`),
        ),
      );
    }
    const publishedMs = performance.now() - started;
    await done;
    const handledMs = performance.now() - started;
    return { publishedPerSecond: messages / (publishedMs / 1000), handledPerSecond: messages / (handledMs / 1000) };
  } finally {
    await consumer.stop();
    await queue.close();
  }
}
