import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knex from 'knex';
import pg from 'pg';
import { ReplayAccountLedger } from '../../application/audit/replay-account-ledger.js';
import { ReadWebhookDeliveryHistory } from '../../application/audit/webhook-delivery-history.js';
import type { Clock } from '../../application/ports/clock.js';
import type { PlanId } from '../../domain/account/plan.js';
import { SUBSCRIPTION_ALLOWANCE } from '../../domain/subscription/roster.js';
import type { EventStore, RecordedEvent } from '../../application/ports/event-store.js';
import { migrateEventStoreSchema } from '../../infrastructure/event-store/postgres/schema.js';
import { openEmbeddedStorage } from '../../infrastructure/database/open-storage.js';
import { apiClient } from '../support/api-client.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { foldStoredStreams } from '../support/stored-events/fold-stored-streams.js';
import { importStoredRows } from '../support/stored-events/import-stored-rows.js';
import { rowsByStream } from '../support/stored-events/stored-event-row.js';
import type { WrittenStoreFixture } from '../support/stored-events/written-store-fixture.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { READ_MODEL_SCHEMA } from '../../infrastructure/features/features.js';

/** Written by test/support/stored-events/write-store-fixture.ts with the service of November 2026; never rewritten. */
const FIXTURE_FILE = path.resolve(__dirname, '../../../test/fixtures/stores/written-by-2026-11.json');
const fixture: WrittenStoreFixture = JSON.parse(readFileSync(FIXTURE_FILE, 'utf8'));
const json = (value: unknown) => JSON.parse(JSON.stringify(value));

/** The instant the fixture's answers hold for, so periods, lifetimes and links read as they did. */
const writtenAt: Clock = { now: () => new Date(fixture.writtenAt) };

/**
 * Links name the server that answered, and their file reference and signature changed form on purpose (the reference
 * is sealed since links stopped showing account and job ids): the download name and the expiry must not change.
 */
function withoutOrigin(view: unknown): unknown {
  const copy = json(view);
  if (typeof copy?.downloadUrl === 'string') {
    const link = new URL(copy.downloadUrl);
    copy.downloadUrl = `${link.pathname.split('/').at(-1)}?expires=${link.searchParams.get('expires')}`;
  }
  return copy;
}

/** The fixture's streams as the store port answers them, for use cases that only read streams. */
function fixtureStreams(): EventStore {
  const streams = rowsByStream(fixture.events);
  return {
    async readStream(name: string) {
      return (streams.get(name) ?? []).map(
        (row) => ({ ...row, position: '0', createdAt: new Date(row.createdAt) }) as RecordedEvent,
      );
    },
  } as EventStore;
}

describe('a store written by the service of November 2026', function () {
  this.timeout(120_000);

  it("folds, with today's deciders, into the states its writer folded", () => {
    assert.deepEqual(foldStoredStreams(fixture.events), fixture.states);
  });

  it('gives the webhook delivery histories its writer gave', async () => {
    for (const { jobId, history } of fixture.webhookDeliveries) {
      assert.deepEqual(json(await new ReadWebhookDeliveryHistory(fixtureStreams()).execute(jobId)), history, jobId);
    }
  });

  /** The projections of a service started on the imported store answer the API, and the ledger, as the writer did. */
  async function assertAnswersAsWritten(service: TestService): Promise<void> {
    await service.settle();
    const call = apiClient(service.url);
    for (const account of fixture.accounts) {
      // The subscriptions allowance came after the fixture was written: every field its writer answered is answered alike.
      const { subscriptions, ...me } = (await call('GET', '/api/v2/me', { key: account.apiKey })).body;
      assert.deepEqual(me, account.me, `GET /me of ${account.accountId}`);
      assert.deepEqual(subscriptions, {
        allowance: SUBSCRIPTION_ALLOWANCE[(account.me as { plan: { id: PlanId } }).plan.id],
        held: 0,
      });
      const ledger = await service.service.container.resolve(ReplayAccountLedger).execute(account.accountId);
      // Release lines came after the fixture was written: every line its writer printed is still printed, in order.
      const written =
        ledger === null ? null : { ...ledger, entries: ledger.entries.filter((entry) => entry.kind !== 'release') };
      assert.deepEqual(json(written), account.ledger, `ledger of ${account.accountId}`);
    }
    for (const job of fixture.jobs) {
      const { status, body } = await call('GET', job.path, { key: job.apiKey });
      assert.equal(status, 200, job.path);
      assert.deepEqual(withoutOrigin(body), withoutOrigin(job.view), job.path);
    }
  }

  describe('imported into PostgreSQL', () => {
    let database: TestDatabase;
    let service: TestService;

    before(async () => {
      database = await createTestDatabase('written_store');
      const pool = new pg.Pool({ connectionString: database.url, max: 1 });
      await migrateEventStoreSchema(pool).finally(() => pool.end());
      const db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 1 } });
      await importStoredRows(db, fixture.events).finally(() => db.destroy());
      service = await startTestService({
        label: 'written_store_reader',
        roles: ['api', 'projector'],
        databaseUrl: () => database.url,
        env: { ...fixture.env, DATABASE_POOL_SIZE: '4' },
        overrides: { clock: writtenAt },
      });
    });
    after(async () => {
      await service?.stop();
      await database?.drop();
    });

    it('answers /me, the jobs and the ledgers as its writer did', async () => {
      await assertAnswersAsWritten(service);
    });

    it('projects every info and client-download job into the read model polls answer from', async () => {
      await service.settle();
      const db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 1 } });
      try {
        for (const job of fixture.jobs.filter(({ path }) => !path.includes('/download/'))) {
          const view = job.view as { jobId: string; status: string; result?: unknown; error?: string };
          const row = await db('lookup_jobs').where({ job_id: view.jobId }).first();
          assert.deepEqual(
            { status: row?.status, result: row?.result ?? undefined, error: row?.error ?? undefined },
            { status: view.status, result: view.result, error: view.error },
            job.path,
          );
        }
      } finally {
        await db.destroy();
      }
    });
  });

  describe('imported into the embedded database', () => {
    let directory: string;
    let service: TestService;

    before(async () => {
      directory = await mkdtemp(path.join(tmpdir(), 'vds-written-store-'));
      const storage = await openEmbeddedStorage(directory, READ_MODEL_SCHEMA);
      await importStoredRows(storage.database, fixture.events).finally(() => storage.close());
      service = await startTestService({
        embedded: true,
        roles: ['api', 'projector'],
        env: { ...fixture.env, EMBEDDED_DATA_DIR: directory },
        overrides: { clock: writtenAt },
      });
    });
    after(async () => {
      await service?.stop();
      await rm(directory, { recursive: true, force: true });
    });

    it('answers /me, the jobs and the ledgers as its writer did', async () => {
      await assertAnswersAsWritten(service);
    });
  });
});
