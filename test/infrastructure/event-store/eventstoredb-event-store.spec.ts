import assert from 'node:assert/strict';
import { toEsdbConnectionString } from '../../../infrastructure/event-store/eventstoredb/connection-string.js';
import { EventStoreDbEventStore } from '../../../infrastructure/event-store/eventstoredb/eventstoredb-event-store.js';
import { describeEventStoreContract } from './contract.js';

describe('EventStoreDB connection strings', () => {
  it('keeps esdb:// URLs and rewrites kurrentdb:// ones, which the v6 client refuses', () => {
    assert.equal(toEsdbConnectionString('esdb://localhost:2113?tls=false'), 'esdb://localhost:2113?tls=false');
    assert.equal(toEsdbConnectionString('kurrentdb://localhost:2113?tls=false'), 'esdb://localhost:2113?tls=false');
    assert.equal(toEsdbConnectionString('kurrentdb+discover://a,b'), 'esdb+discover://a,b');
    assert.throws(() => toEsdbConnectionString('postgres://x'), /EVENTSTORE_URL/);
  });
});

const url = process.env.EVENTSTORE_URL ?? '';
if (/^(esdb|kurrentdb)(\+discover)?:\/\//.test(url)) {
  describeEventStoreContract('EventStoreDB', async () => {
    const store = new EventStoreDbEventStore({ url });
    return { store, cleanup: () => store.close() };
  });
} else {
  console.log('EventStoreDB contract suite skipped: set EVENTSTORE_URL=esdb://localhost:2113?tls=false to run it (docker compose up eventstore)');
  describe('event store contract: EventStoreDB', () => {
    it('runs against a live EventStoreDB (skipped: EVENTSTORE_URL is not set)');
  });
}
