import { InMemoryEventStore } from '../../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { describeEventStoreContract } from '../contract.js';

describeEventStoreContract('in memory', async () => {
  const store = new InMemoryEventStore();
  return { store, cleanup: () => store.close() };
});
