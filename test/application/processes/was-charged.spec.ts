import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { EventStore, ReadStreamOptions, RecordedEvent } from '../../../application/ports/event-store.js';
import { wasCharged } from '../../../application/processes/was-charged.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';

describe('wasCharged: a charge found backwards from the newest event', () => {
  const accountId = randomUUID();
  const stream = `account-${accountId}`;
  const download = (jobId: string) => ({
    chargedType: 'BandwidthCharged',
    reservedType: 'DownloadReserved',
    idField: 'jobId' as const,
    id: jobId,
  });
  let store: InMemoryEventStore;
  let eventsRead = 0;
  let counting: EventStore;

  before(async () => {
    store = new InMemoryEventStore();
    const append = (type: string, data: Record<string, unknown>) =>
      store.appendToStream(stream, [{ id: randomUUID(), type, data: { accountId, ...data } }], {
        expectedRevision: 'any',
      });
    await append('DownloadReserved', { jobId: 'old-charged' });
    await append('BandwidthCharged', { jobId: 'old-charged' });
    await append('DownloadReserved', { jobId: 'released' });
    await append('DownloadReleased', { jobId: 'released' });
    for (let i = 0; i < 450; i += 1) await append('DownloadReserved', { jobId: `busy-${i}` });
    await append('DownloadReserved', { jobId: 'recent' });
    await append('BandwidthCharged', { jobId: 'recent' });
    counting = new Proxy(store, {
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

  it('finds a recent charge in the first page', async () => {
    assert.equal(await wasCharged(counting, accountId, download('recent')), true);
    assert.ok(eventsRead <= 200, `${eventsRead} events read`);
  });

  it('finds a charge behind several pages of other events', async () => {
    assert.equal(await wasCharged(counting, accountId, download('old-charged')), true);
  });

  it('stops at the reservation of a job that was never charged', async () => {
    assert.equal(await wasCharged(counting, accountId, download('busy-400')), false);
    assert.ok(eventsRead <= 200, `${eventsRead} events read`);
    assert.equal(await wasCharged(counting, accountId, download('released')), false);
  });

  it('answers false for a job the account never reserved, and for an account with no stream', async () => {
    assert.equal(await wasCharged(counting, accountId, download('unknown')), false);
    assert.equal(await wasCharged(counting, randomUUID(), download('unknown')), false);
  });
});
