import { EventStoreDbEventStore } from '../../../../infrastructure/event-store/eventstoredb/eventstoredb-event-store.js';
import { describeEventStoreContract } from '../contract.js';

const url = process.env.EVENTSTORE_URL ?? '';

// The suite needs a live server, so it only runs when one is configured.
if (/^(esdb|kurrentdb)/i.test(url)) {
  describeEventStoreContract(
    'EventStoreDB',
    async () => {
      const store = new EventStoreDbEventStore({ url });
      return { store, cleanup: () => store.close() };
    },
    { refusesReusedEventIds: false },
  );
} else {
  console.log('EventStoreDB contract suite skipped: set EVENTSTORE_URL=esdb://localhost:2113?tls=false to run it');
  describe('EventStoreDB event store contract', () => {
    it('runs against a live EventStoreDB (skipped: EVENTSTORE_URL is not set)');
  });
}
