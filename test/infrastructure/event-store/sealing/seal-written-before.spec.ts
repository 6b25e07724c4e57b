import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { ReplayAccountLedger } from '../../../../application/audit/replay-account-ledger.js';
import type { EventStore, RecordedEvent } from '../../../../application/ports/event-store.js';
import { mapPersonalFields } from '../../../../domain/personal-data/personal-fields.js';
import { adminCommand } from '../../../../infrastructure/admin/admin-command.js';
import { TOKENS } from '../../../../infrastructure/composition/tokens.js';
import { EVENT_COLUMNS, type EventRow } from '../../../../infrastructure/event-store/postgres/event-rows.js';
import { migrateEventStoreSchema } from '../../../../infrastructure/event-store/postgres/schema.js';
import { isSealed } from '../../../../infrastructure/security/personal-data/personal-data-cipher.js';
import { apiClient } from '../../../support/api-client.js';
import { type TestDatabase, createTestDatabase } from '../../../support/postgres.js';
import { importStoredRows } from '../../../support/stored-events/import-stored-rows.js';
import type { WrittenStoreFixture } from '../../../support/stored-events/written-store-fixture.js';
import { type TestService, startTestService } from '../../../support/test-service.js';

const FIXTURE_FILE = path.resolve(__dirname, '../../../../../test/fixtures/stores/written-by-2026-11.json');
const fixture: WrittenStoreFixture = JSON.parse(readFileSync(FIXTURE_FILE, 'utf8'));

/** The store's rows as they are, in the order the store took them. */
async function rawRows(db: Knex): Promise<EventRow[]> {
  const { rows } = (await db.raw(`SELECT ${EVENT_COLUMNS} FROM es_events ORDER BY es_events.global_position`)) as {
    rows: EventRow[];
  };
  return rows;
}

/** Each personal field's value, in order: what sealing must change and nothing else. */
function personalValues(type: string, data: Record<string, unknown>): unknown[] {
  const values: unknown[] = [];
  mapPersonalFields(type, data, (value) => values.push(value));
  return values;
}

async function everything(store: EventStore): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after: events.at(-1)?.position ?? null, maxCount: 500 });
    if (page.length === 0) return events;
    events.push(...page);
  }
}

describe('seal-stored-events: the one-off migration of events written in plain text, on the November 2026 store', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let db: Knex;
  let service: TestService;

  before(async () => {
    database = await createTestDatabase('sealed_store');
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    await migrateEventStoreSchema(pool).finally(() => pool.end());
    db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 1 } });
    await importStoredRows(db, fixture.events);
    service = await startTestService({
      label: 'sealed_store',
      roles: ['api', 'projector'],
      databaseUrl: () => database.url,
      env: { ...fixture.env, DATABASE_POOL_SIZE: '4' },
      // The instant the fixture's answers hold for, so no period renews meanwhile.
      overrides: { clock: { now: () => new Date(fixture.writtenAt) } },
    });
  });
  after(async () => {
    await service?.stop();
    await db?.destroy();
    await database?.drop();
  });

  async function seal(): Promise<{ scanned: number; sealed: number }> {
    let out = '';
    const code = await adminCommand(['seal-stored-events'], service.service.container, {
      out: (text) => {
        out += text;
      },
      err: () => undefined,
    });
    assert.equal(code, 0);
    return JSON.parse(out);
  }

  it('seals every personal field in place, changes nothing else, reads back as written, and runs again as a no-op', async () => {
    const before = await rawRows(db);
    const plainValues = before.flatMap((row) => personalValues(row.event_type, row.data));
    assert.ok(plainValues.length > 20 && plainValues.every((value) => !isSealed(value)), 'the fixture is plain text');

    const report = await seal();
    assert.ok(report.sealed > 0 && report.sealed <= report.scanned, JSON.stringify(report));

    const after = await rawRows(db);
    assert.equal(after.length, before.length);
    for (const [index, row] of after.entries()) {
      const was = before[index] as EventRow;
      const { data, ...place } = row;
      const { data: wasData, ...wasPlace } = was;
      assert.deepEqual(place, wasPlace, 'positions, streams, revisions, ids, types and metadata stay');
      assert.ok(personalValues(row.event_type, data).every(isSealed), `${row.event_type} is sealed`);
      const restored = mapPersonalFields(row.event_type, data, () => '*');
      assert.deepEqual(
        restored,
        mapPersonalFields(was.event_type, wasData, () => '*'),
        'only personal fields change',
      );
    }
    // What the service reads is what was written.
    const opened = new Map(
      (await everything(service.service.container.resolve(TOKENS.eventStore))).map((event) => [event.id, event.data]),
    );
    for (const row of before) assert.deepEqual(opened.get(row.event_id), row.data, row.event_type);
    assert.deepEqual(await seal(), { scanned: report.scanned, sealed: 0 });
  });

  it('still answers /me and the auditors’ ledgers as its writer did', async () => {
    await service.settle();
    const call = apiClient(service.url);
    for (const account of fixture.accounts) {
      const { subscriptions: _, ...me } = (await call('GET', '/api/v2/me', { key: account.apiKey })).body;
      assert.deepEqual(me.balances, (account.me as { balances: unknown }).balances);
      const ledger = await service.service.container.resolve(ReplayAccountLedger).execute(account.accountId);
      const written = account.ledger as { replayed: unknown } | null;
      assert.deepEqual(JSON.parse(JSON.stringify(ledger?.replayed ?? null)), written?.replayed ?? null);
      assert.deepEqual(ledger?.differences ?? [], []);
    }
  });
});
