import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { EventStore, ReadStreamOptions, RecordedEvent } from '../../../application/ports/event-store.js';
import { reservationTimes } from '../../../application/processes/reservation-times.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';

describe('reservationTimes: when open reservations were made, read backwards', () => {
  const accountId = randomUUID();
  const download = { type: 'DownloadReserved', idField: 'jobId' as const };
  let eventsRead = 0;
  let store: EventStore;

  before(async () => {
    const events = new InMemoryEventStore();
    const append = (type: string, data: Record<string, unknown>) =>
      events.appendToStream(`account-${accountId}`, [{ id: randomUUID(), type, data: { accountId, ...data } }], {
        expectedRevision: 'any',
      });
    await append('DownloadReserved', { jobId: 'first', reservedAt: '2026-01-01T00:00:00.000Z' });
    for (let i = 0; i < 1_200; i += 1) {
      await append('DownloadReserved', { jobId: `settled-${i}`, reservedAt: '2026-01-02T00:00:00.000Z' });
      await append('BandwidthCharged', { jobId: `settled-${i}` });
    }
    await append('DownloadReserved', { jobId: 'recent', reservedAt: '2026-01-03T00:00:00.000Z' });
    store = new Proxy(events, {
      get: (target, property, receiver) =>
        property === 'readStream'
          ? async (name: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> => {
              const page = await target.readStream(name, options);
              eventsRead += page.length;
              return page;
            }
          : Reflect.get(target, property, receiver),
    });
  });
  beforeEach(() => {
    eventsRead = 0;
  });

  it('stops as soon as every open reservation is found', async () => {
    assert.deepEqual(
      [...(await reservationTimes(store, accountId, ['recent'], download))],
      [['recent', '2026-01-03T00:00:00.000Z']],
    );
    assert.ok(eventsRead <= 500, `${eventsRead} events read`);
  });

  it('reaches back as far as the oldest open reservation', async () => {
    const found = await reservationTimes(store, accountId, ['recent', 'first'], download);
    assert.equal(found.get('first'), '2026-01-01T00:00:00.000Z');
    assert.equal(found.get('recent'), '2026-01-03T00:00:00.000Z');
    assert.equal(eventsRead, 2_402);
  });

  it('leaves out an id the stream never reserved, and reads nothing for none', async () => {
    assert.deepEqual([...(await reservationTimes(store, accountId, ['never'], download))], []);
    eventsRead = 0;
    assert.deepEqual([...(await reservationTimes(store, accountId, [], download))], []);
    assert.equal(eventsRead, 0);
  });
});
