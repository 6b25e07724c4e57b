import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JetStreamManager, NatsConnection } from 'nats';
import { startNatsCluster } from '../../../bench/soak/own-nats-cluster.js';
import type { OwnNats } from '../../../bench/soak/own-nats.js';
import { connectToNats, ensureWorkQueueStream } from '../../../infrastructure/nats/connection.js';

describe('ensureWorkQueueStream on a 3-node JetStream cluster', function () {
  this.timeout(120_000);
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
});
