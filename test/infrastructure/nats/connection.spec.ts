import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JetStreamManager, NatsConnection } from 'nats';
import { startNatsCluster } from '../../../bench/soak/own-nats-cluster.js';
import type { OwnNats } from '../../../bench/soak/own-nats.js';
import type { Logger } from '../../../application/ports/logger.js';
import { connectToNats, ensureWorkQueueStream } from '../../../infrastructure/nats/connection.js';
import { JetStreamWorkQueue } from '../../../infrastructure/nats/jetstream-work-queue.js';
import type { CheckpointedProcessorOptions } from '../../../infrastructure/processing/checkpointed-processor.js';
import { waitFor } from '../../support/wait-for.js';

describe('the work queue on a 3-node JetStream cluster', function () {
  this.timeout(360_000);
  let dir: string;
  let nodes: OwnNats[] = [];
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nats-cluster-spec-'));
    nodes = await startNatsCluster(dir);
    // The whole list, as NATS_URL carries it.
    nc = await connectToNats({ url: nodes.map((node) => node.url).join(', '), name: 'connection.spec' });
    jsm = await nc.jetstreamManager();
  });

  after(async () => {
    await nc?.close();
    await Promise.all(nodes.map((node) => node.kill()));
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the stream with the replicas asked for, one copy on each node', async () => {
    const info = await ensureWorkQueueStream(jsm, {
      name: 'WQ_REPLICATED',
      subjects: ['wq_replicated.>'],
      replicas: 3,
    });
    assert.equal(info.config.num_replicas, 3);
    assert.equal(info.cluster?.replicas?.length, 2, 'a leader and two followers');
  });

  it('brings an existing stream of one replica up to the count asked for', async () => {
    await ensureWorkQueueStream(jsm, { name: 'WQ_RAISED', subjects: ['wq_raised.>'] });
    assert.equal((await jsm.streams.info('WQ_RAISED')).config.num_replicas, 1);
    await ensureWorkQueueStream(jsm, { name: 'WQ_RAISED', subjects: ['wq_raised.>'], replicas: 3 });
    assert.equal((await jsm.streams.info('WQ_RAISED')).config.num_replicas, 3);
  });

  // A stream of 3 replicas is placed on 3 nodes: with one of them still down, creating it may fail for want of
  // peers, so only the whole cluster back makes the opening certain.
  it('waits at start-up while the cluster cannot create the stream, and opens once the cluster is whole again', async () => {
    const warnings: string[] = [];
    const logger: Logger = {
      info() {},
      warn: (_fields, message) => void warnings.push(String(message)),
      error() {},
      child: () => logger,
    };
    await Promise.all([nodes[1].kill(), nodes[2].kill()]);
    let outcome: 'pending' | 'opened' | 'failed' = 'pending';
    const opening = JetStreamWorkQueue.open({
      url: nodes.map((node) => node.url).join(','),
      stream: 'WQ_START',
      subjects: ['wq_start.>'],
      replicas: 3,
      connectionName: 'connection.spec',
      // Re-elections after restarts can take long on a loaded machine: the spec is about waiting, not about how long.
      startWaitMs: 300_000,
      // Each try without a quorum runs into this; the spec waits for two tries twice.
      requestTimeoutMs: 1_000,
      logger,
      processor: {} as CheckpointedProcessorOptions,
    });
    opening.then(
      () => (outcome = 'opened'),
      () => (outcome = 'failed'),
    );
    const deadline = Date.now() + 60_000;
    while (warnings.length < 2 && outcome === 'pending' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(outcome, 'pending', 'still waiting after two tries without a quorum');
    assert.match(warnings[0], /the cluster has no leader/);
    await Promise.all([nodes[1].startAgain(), nodes[2].startAgain()]);
    const queue = await opening;
    // The metadata leader goes on answering for a while as if it still led when left alone.
    const leader = await metaLeader(nodes[0]);
    const stopped = nodes.filter((node) => node.name !== leader);
    try {
      // The quorum lost again before a worker's consumer is created: the consumer waits too.
      await Promise.all(stopped.map((node) => node.kill()));
      const waitedBefore = warnings.length;
      const consumer = queue.consumer({
        subject: 'wq_start.download',
        handler: async () => ({ outcome: 'ack' }) as never,
      });
      let started: 'pending' | 'started' | 'failed' = 'pending';
      const starting = consumer.start();
      starting.then(
        () => (started = 'started'),
        () => (started = 'failed'),
      );
      while (warnings.length < waitedBefore + 2 && started === 'pending' && Date.now() < deadline + 60_000)
        await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(started, 'pending', 'the consumer still waiting after two tries without a quorum');
      assert.match(warnings.at(-1) ?? '', /starting the consumer of wq_start.download/);
      await Promise.all(stopped.map((node) => node.startAgain()));
      await starting;
      await consumer.stop();
    } finally {
      await queue.close();
    }
  });
});

/** The name of the cluster's metadata leader, as `node` sees it, once there is one. */
async function metaLeader(node: OwnNats): Promise<string> {
  return waitFor('the cluster has a metadata leader', async () => {
    const response = await fetch(`http://127.0.0.1:${node.ports.monitor}/jsz`);
    const jsz = (await response.json()) as { meta_cluster?: { leader?: string } };
    return jsz.meta_cluster?.leader;
  });
}
