import { type EmbeddedDatabase, openEmbeddedDatabase } from '../../../../infrastructure/embedded/embedded-database.js';
import { PgliteEventStore } from '../../../../infrastructure/event-store/pglite/pglite-event-store.js';
import { describeEventStoreContract } from '../contract.js';

describe('PGlite event store (embedded mode)', function () {
  // Creating a PGlite database runs initdb in WebAssembly: seconds, so the suite shares one.
  this.timeout(120_000);
  let database: EmbeddedDatabase;
  before(async () => {
    database = await openEmbeddedDatabase(null);
  });
  after(async () => database?.close());

  describeEventStoreContract('PGlite', async () => {
    const store = new PgliteEventStore(database.db, { pollIntervalMs: 50 });
    await store.migrate();
    return { store, cleanup: () => store.close() };
  });
});
