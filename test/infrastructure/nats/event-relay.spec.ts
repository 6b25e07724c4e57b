import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { JetStreamClient, JetStreamManager, NatsConnection } from 'nats';
import type { Checkpoint, EventStore, RecordedEvent } from '../../../application/ports/event-store.js';
import type { Logger } from '../../../application/ports/logger.js';
import { connectToNats, ensureWorkQueueStream } from '../../../infrastructure/nats/connection.js';
import { EventRelay, type EventRelayOptions } from '../../../infrastructure/nats/event-relay.js';
import { createKnex } from '../../../infrastructure/postgres/create-knex.js';
import { CHECKPOINT_TABLE } from '../../../infrastructure/processing/checkpoint-schema.js';
import { type TestDatabase, createTestDatabase } from '../../support/postgres.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';

const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

interface Relayed {
  subject: string;
  msgId: string | undefined;
  payload: { eventId: string; n: number; part?: number };
}

describe('EventRelay (event store → JetStream)', () => {
  const suffix = randomBytes(4).toString('hex');
  const stream = `RELAYTEST_${suffix}`;
  const prefix = `relaytest_${suffix}`;
  let database: TestDatabase;
  let db: Knex;
  let store: EventStore;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let jsm: JetStreamManager;
  const relays: EventRelay[] = [];
  let counter = 0;

  before(async () => {
    database = await createTestDatabase('event_relay');
    db = createKnex(database.url);
    store = new InMemoryEventStore();
    nc = await connectToNats({ url: NATS_URL, name: 'event-relay.spec' });
    js = nc.jetstream();
    jsm = await nc.jetstreamManager();
    await ensureWorkQueueStream(jsm, {
      name: stream,
      subjects: [`${prefix}.covered.>`],
      duplicateWindowMs: 10 * 60_000,
    });
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  });

  after(async () => {
    await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
    await store.close();
    await db.destroy();
    await database.drop();
  });

  /** A test's own streams, subject and relay name, so tests never see each other's events. */
  function scenario(subjectRoot = 'covered') {
    counter += 1;
    const category = `relayed${counter}`;
    const subject = `${prefix}.${subjectRoot}.t${counter}`;
    const name = `relay:test${counter}`;
    const route = (event: RecordedEvent) => {
      const n = Number(event.data.n);
      if (event.type === 'Split') return [0, 1].map((part) => ({ subject, payload: { eventId: event.id, n, part } }));
      if (event.type === 'Quiet') return [];
      return [{ subject, payload: { eventId: event.id, n } }];
    };
    const relay = (options: Partial<EventRelayOptions> = {}) => {
      const created = new EventRelay({
        db,
        store,
        connectionString: database.url,
        logger: silent,
        js,
        route,
        name,
        filter: { streamPrefixes: [`${category}-`] },
        batchSize: 4,
        retry: { initialDelayMs: 20, maxDelayMs: 100 },
        ...options,
      });
      relays.push(created);
      return created;
    };
    const append = async (count: number, type = 'Happened'): Promise<{ position: Checkpoint; ids: string[] }> => {
      const ids: string[] = [];
      let position: Checkpoint = '';
      for (let n = 0; n < count; n++) {
        const id = randomUUID();
        ids.push(id);
        ({ position } = await store.appendToStream(`${category}-${n % 2}`, [{ id, type, data: { n } }], {
          expectedRevision: 'any',
        }));
      }
      return { position, ids };
    };
    return { subject, name, relay, append };
  }

  /** Every message the stream holds on `subject`, in stream order. */
  async function messagesOn(subject: string): Promise<Relayed[]> {
    const info = await jsm.streams.info(stream);
    const found: Relayed[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const message = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      if (message === null || message.subject !== subject) continue;
      found.push({
        subject: message.subject,
        msgId: message.header.get('Nats-Msg-Id') || undefined,
        payload: message.json(),
      });
    }
    return found;
  }

  it('publishes each routed event once, in store order, with the event id as msgID', async () => {
    const { subject, relay, append } = scenario();
    const first = await append(5);
    await append(2, 'Quiet');
    const split = await append(1, 'Split');
    const live = relay();
    await live.start();
    await live.waitUntilCaughtUp(split.position);

    const messages = await messagesOn(subject);
    assert.deepEqual(
      messages.map((m) => m.msgId),
      [...first.ids, `${split.ids[0]}:0`, `${split.ids[0]}:1`],
    );
    assert.deepEqual(
      messages.map((m) => m.payload.eventId),
      [...first.ids, split.ids[0], split.ids[0]],
    );
  });

  it('resumes after a restart from its checkpoint without losing events', async () => {
    const { subject, relay, append } = scenario();
    const before = await append(6);
    const first = relay();
    await first.start();
    await first.waitUntilCaughtUp(before.position);
    await first.stop();

    const during = await append(5);
    const second = relay();
    await second.start();
    await second.waitUntilCaughtUp(during.position);
    assert.deepEqual(
      (await messagesOn(subject)).map((m) => m.msgId),
      [...before.ids, ...during.ids],
    );
  });

  it('adds nothing when it re-publishes inside the duplicate window, as after a crash before its checkpoint moved', async () => {
    const { subject, name, relay, append } = scenario();
    const events = await append(7);
    const first = relay();
    await first.start();
    await first.waitUntilCaughtUp(events.position);
    await first.stop();

    const ack = await js.publish(subject, JSON.stringify({ eventId: events.ids[0], n: 0 }), { msgID: events.ids[0] });
    assert.equal(ack.duplicate, true);

    // As if the relay had published everything but died before checkpointing.
    await db(CHECKPOINT_TABLE).where({ name }).update({ checkpoint: null });
    const again = relay();
    await again.start();
    await again.waitUntilCaughtUp(events.position);
    assert.deepEqual(
      (await messagesOn(subject)).map((m) => m.msgId),
      events.ids,
    );
  });

  it('runs on one instance at a time', async () => {
    const { subject, relay, append } = scenario();
    const first = relay();
    const second = relay();
    await first.start();
    await second.start();
    const events = await append(9);
    await first.waitUntilCaughtUp(events.position);
    assert.equal([first, second].filter((relay) => relay.isActive).length, 1);
    assert.deepEqual(
      (await messagesOn(subject)).map((m) => m.msgId),
      events.ids,
    );
  });

  it('retries a batch the stream does not accept, without skipping it, until it does', async () => {
    const { subject, relay, append } = scenario('uncovered');
    const events = await append(3);
    const live = relay();
    await live.start();
    await assert.rejects(live.waitUntilCaughtUp(events.position, { timeoutMs: 300 }));

    await ensureWorkQueueStream(jsm, {
      name: stream,
      subjects: [`${prefix}.covered.>`, `${prefix}.uncovered.>`],
      duplicateWindowMs: 10 * 60_000,
    });
    await live.waitUntilCaughtUp(events.position);
    assert.deepEqual(
      (await messagesOn(subject)).map((m) => m.msgId),
      events.ids,
    );
  });
});
