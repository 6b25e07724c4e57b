import assert from 'node:assert/strict';
import { type Consumer, type JetStreamManager, NatsError } from 'nats';
import { ConsumerLeadership } from '../../../infrastructure/nats/consumer-leadership.js';

/** A stream and its consumer as JetStream reports them: in a cluster or not, each led or not. */
function cluster(state: { clustered: boolean; streamLeader: string | null; consumerLeader: string | null }) {
  const deleted: string[] = [];
  const clusterOf = (leader: string | null) =>
    state.clustered ? { name: 'c', ...(leader === null ? {} : { leader }) } : undefined;
  const jsm = {
    streams: { info: async () => ({ cluster: clusterOf(state.streamLeader) }) },
    consumers: {
      delete: async (_stream: string, name: string) => {
        deleted.push(name);
        return true;
      },
    },
  } as unknown as JetStreamManager;
  const consumer = {
    info: async () => ({ name: 'wq_download', cluster: clusterOf(state.consumerLeader) }),
  } as unknown as Consumer;
  return { jsm, consumer, deleted };
}

describe('a work consumer without a leader', () => {
  let clock = 0;
  const replaced: Array<{ consumer: string; leaderlessMs: number }> = [];
  const leadership = () =>
    new ConsumerLeadership(
      (consumer, leaderlessMs) => replaced.push({ consumer, leaderlessMs }),
      15_000,
      () => clock,
    );

  beforeEach(() => {
    clock = 0;
    replaced.length = 0;
  });

  it('is given out once led, and on a lone server at once', async () => {
    const led = cluster({ clustered: true, streamLeader: 'n1', consumerLeader: 'n2' });
    assert.equal(await leadership().led(led.jsm, 'WQ', led.consumer), led.consumer);
    const lone = cluster({ clustered: false, streamLeader: null, consumerLeader: null });
    assert.equal(await leadership().led(lone.jsm, 'WQ', lone.consumer), lone.consumer);
  });

  it('is waited for, then deleted once after 15 s while its stream is led, for the next attempt to create it anew', async () => {
    const state = { clustered: true, streamLeader: 'n1', consumerLeader: null as string | null };
    const { jsm, consumer, deleted } = cluster(state);
    const watch = leadership();
    for (const at of [0, 5_000, 14_999]) {
      clock = at;
      await assert.rejects(watch.led(jsm, 'WQ', consumer), NatsError);
    }
    assert.deepEqual(deleted, [], 'not before 15 s');
    clock = 15_000;
    await assert.rejects(watch.led(jsm, 'WQ', consumer), NatsError);
    assert.deepEqual(deleted, ['wq_download']);
    assert.deepEqual(replaced, [{ consumer: 'wq_download', leaderlessMs: 15_000 }]);
    // The consumer created anew gets its own 15 s to elect a leader.
    clock = 16_000;
    await assert.rejects(watch.led(jsm, 'WQ', consumer), NatsError);
    assert.deepEqual(deleted, ['wq_download']);
    state.consumerLeader = 'n3';
    clock = 17_000;
    assert.equal(await watch.led(jsm, 'WQ', consumer), consumer);
  });

  it('counts the 15 s afresh after a leader was seen, and never deletes while the stream itself has no leader', async () => {
    const state = { clustered: true, streamLeader: null as string | null, consumerLeader: null as string | null };
    const { jsm, consumer, deleted } = cluster(state);
    const watch = leadership();
    for (const at of [0, 20_000, 60_000]) {
      clock = at;
      await assert.rejects(watch.led(jsm, 'WQ', consumer), NatsError);
    }
    assert.deepEqual(deleted, [], 'a stream without a leader is an outage to wait out');
    state.streamLeader = 'n1';
    state.consumerLeader = 'n2';
    clock = 61_000;
    await watch.led(jsm, 'WQ', consumer);
    state.consumerLeader = null;
    clock = 70_000;
    await assert.rejects(watch.led(jsm, 'WQ', consumer), NatsError);
    clock = 80_000;
    await assert.rejects(watch.led(jsm, 'WQ', consumer), NatsError);
    assert.deepEqual(deleted, [], 'leaderless for 10 s only');
  });
});
