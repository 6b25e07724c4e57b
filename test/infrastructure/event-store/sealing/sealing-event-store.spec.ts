import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import knex, { type Knex } from 'knex';
import type { EventToAppend } from '../../../../application/ports/event-store.js';
import { InMemoryEventStore } from '../../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { SealingEventStore } from '../../../../infrastructure/event-store/sealing/sealing-event-store.js';
import { ChannelListener } from '../../../../infrastructure/postgres/channel-listener.js';
import { AccountDataKeys } from '../../../../infrastructure/security/personal-data/account-data-keys.js';
import { MasterKeys, masterKey } from '../../../../infrastructure/security/personal-data/master-keys.js';
import { isSealed } from '../../../../infrastructure/security/personal-data/personal-data-cipher.js';
import { rotateMasterKey } from '../../../../infrastructure/security/personal-data/rotate-master-key.js';
import {
  DATA_KEY_DESTROYED_CHANNEL,
  PostgresDataKeyStore,
} from '../../../../infrastructure/security/personal-data/postgres-data-key-store.js';
import { type TestDatabase, createTestDatabase } from '../../../support/postgres.js';
import { waitFor } from '../../../support/wait-for.js';

const requested = (accountId: string, url: string): EventToAppend => ({
  id: randomUUID(),
  type: 'DownloadRequested',
  data: { jobId: randomUUID(), accountId, url, webhookUrl: null, title: 'A title', duration: 12, format: 'audio' },
});

describe('infrastructure: the event store seals personal fields on the way in and opens them on the way out', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;
  let keyStore: PostgresDataKeyStore;
  const masters = new MasterKeys(masterKey(randomBytes(32)));

  before(async () => {
    database = await createTestDatabase('sealing_store');
    db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
    keyStore = new PostgresDataKeyStore(db);
    await keyStore.migrate();
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('keeps only sealed text in the store, answers the values written, and passes other events as they are', async () => {
    const inner = new InMemoryEventStore();
    const store = new SealingEventStore(inner, new AccountDataKeys(keyStore, masters));
    const accountId = randomUUID();
    const event = requested(accountId, 'https://www.youtube.com/watch?v=abc');
    const charged: EventToAppend = { id: randomUUID(), type: 'BandwidthCharged', data: { accountId, bandwidthMb: 20 } };
    await store.appendToStream('download-1', [event], { expectedRevision: 'no_stream' });
    await store.appendToStream(`account-${accountId}`, [charged], { expectedRevision: 'no_stream' });

    const [stored] = await inner.readStream('download-1');
    assert.ok(isSealed(stored?.data.url) && isSealed(stored?.data.title));
    assert.equal(stored?.data.webhookUrl, null);
    assert.equal(stored?.data.duration, 12);
    assert.deepEqual((await store.readStream('download-1'))[0]?.data, event.data);
    assert.deepEqual(
      (await store.readAll()).map((recorded) => recorded.data),
      [event.data, charged.data],
    );
    assert.deepEqual((await inner.readStream(`account-${accountId}`))[0]?.data, charged.data);
  });

  it('remembers that an account has no key, and looks again when a value sealed since (by another process) is read', async () => {
    const inner = new InMemoryEventStore();
    const accountId = randomUUID();
    const legacy = requested(accountId, 'https://v/written-before-sealing');
    await inner.appendToStream('l', [legacy], { expectedRevision: 'any' });
    const readerKeys = new AccountDataKeys(keyStore, masters);
    // As while destructions are heard: what was looked up is kept.
    readerKeys.trust();
    const reader = new SealingEventStore(inner, readerKeys);
    assert.equal((await reader.readStream('l'))[0]?.data.url, 'https://v/written-before-sealing');
    const writer = new SealingEventStore(inner, new AccountDataKeys(keyStore, masters));
    await writer.appendToStream('l', [requested(accountId, 'https://v/sealed-later')], { expectedRevision: 'any' });
    assert.deepEqual(
      (await reader.readStream('l')).map((event) => event.data.url),
      ['https://v/written-before-sealing', 'https://v/sealed-later'],
    );
  });

  it('reads an erased account’s fields as markers, equal values alike, in this process and, once told, in another', async () => {
    const inner = new InMemoryEventStore();
    const here = new AccountDataKeys(keyStore, masters);
    const elsewhere = new AccountDataKeys(keyStore, masters);
    const listener = new ChannelListener(database.url, DATA_KEY_DESTROYED_CHANNEL, {
      onNotification: (accountId) => elsewhere.destroyed(accountId),
      onListening: () => elsewhere.trust(),
      onLost: () => elsewhere.distrust(),
    });
    await listener.start();
    try {
      const store = new SealingEventStore(inner, here);
      const accountId = randomUUID();
      const other = randomUUID();
      const url = 'https://www.youtube.com/watch?v=same';
      await store.appendToStream('s', [requested(accountId, url), requested(accountId, url), requested(other, url)], {
        expectedRevision: 'any',
      });
      const seenElsewhere = new SealingEventStore(inner, elsewhere);
      assert.equal((await seenElsewhere.readStream('s'))[0]?.data.url, url, 'the other process caches the key');

      await keyStore.destroy(accountId);
      here.destroyed(accountId);
      const [first, second, third] = await store.readStream('s');
      assert.match(String(first?.data.url), /^\[erased [0-9a-f]{12}\]$/);
      assert.equal(second?.data.url, first?.data.url);
      assert.notEqual(first?.data.title, first?.data.url);
      assert.equal(first?.data.duration, 12);
      assert.equal(third?.data.url, url, 'another account’s data is untouched');
      await waitFor('the other process to hear of the erasure', async () =>
        String((await seenElsewhere.readStream('s'))[0]?.data.url).startsWith('[erased '),
      );

      await store.appendToStream('s', [requested(accountId, url)], { expectedRevision: 'any' });
      const late = (await inner.readStream('s')).at(-1);
      assert.match(String(late?.data.url), /^\[erased /, 'written after the erasure: nothing readable is kept');
    } finally {
      await listener.close();
    }
  });

  it('wraps data keys under the current master key only after a rotation, and unwraps the old ones until then', async () => {
    const oldMaster = masterKey(randomBytes(32));
    const inner = new InMemoryEventStore();
    const accountId = randomUUID();
    const before = new SealingEventStore(inner, new AccountDataKeys(keyStore, new MasterKeys(oldMaster)));
    await before.appendToStream('r', [requested(accountId, 'https://v/rotated')], { expectedRevision: 'any' });
    const stored = JSON.stringify(await inner.readStream('r'));

    // The keys the other cases made are under `masters`: both it and `oldMaster` are replaced.
    const rotated = new MasterKeys(masterKey(randomBytes(32)), [oldMaster, masters.current]);
    assert.ok((await rotateMasterKey(keyStore, rotated)).rewrapped >= 1);
    assert.deepEqual(await rotateMasterKey(keyStore, rotated), { rewrapped: 0 });
    const newOnly = new SealingEventStore(inner, new AccountDataKeys(keyStore, new MasterKeys(rotated.current)));
    assert.equal((await newOnly.readStream('r'))[0]?.data.url, 'https://v/rotated');
    assert.equal(JSON.stringify(await inner.readStream('r')), stored, 'no event was rewritten');
    const oldOnly = new SealingEventStore(inner, new AccountDataKeys(keyStore, new MasterKeys(oldMaster)));
    await assert.rejects(oldOnly.readStream('r'), /not configured/);
  });
});
