import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { EventToAppend } from '../application/ports/event-store.js';
import { PostgresEventStore } from '../infrastructure/event-store/postgres/postgres-event-store.js';
import { SealingEventStore } from '../infrastructure/event-store/sealing/sealing-event-store.js';
import { createKnex } from '../infrastructure/postgres/create-knex.js';
import { AccountDataKeys } from '../infrastructure/security/personal-data/account-data-keys.js';
import { MasterKeys, masterKey } from '../infrastructure/security/personal-data/master-keys.js';
import { PostgresDataKeyStore } from '../infrastructure/security/personal-data/postgres-data-key-store.js';
import type { StoredEventRow } from '../test/support/stored-events/stored-event-row.js';
import { createTestDatabase } from '../test/support/postgres.js';
import { QUICK } from './settings.js';

const FIXTURE = path.resolve(__dirname, '../../test/fixtures/stores/written-by-2026-11.json');
/** A completed download with a delivered webhook: its job stream's events and its account's charges, as written. */
const JOB_EVENTS = [
  'DownloadRequested',
  'DownloadStarted',
  'DownloadCompleted',
  'WebhookAttemptStarted',
  'WebhookAttemptSucceeded',
];
const ACCOUNT_EVENTS = ['DownloadReserved', 'BandwidthCharged'];

/**
 * What a download job costs the event store on disk: one completed job's events (taken from the stored-data fixture,
 * sealed as the service seals them) written `BENCH_SIZE_JOBS` times under new ids, 100 jobs to an account, then the
 * event tables' size with their indexes and TOAST, per job and per event; against the same events in plain text.
 */
export async function benchStoreSize(): Promise<void> {
  const jobs = Number(process.env.BENCH_SIZE_JOBS ?? (QUICK ? 2_000 : 20_000));
  const sealed = await storeSize(jobs, true);
  const plain = await storeSize(jobs, false);
  console.log(
    `store size (${jobs} completed downloads with a delivered webhook, ${sealed.events} events): sealed ${(sealed.bytes / 1024 / 1024).toFixed(1)} MB with indexes, ${Math.round(sealed.bytes / jobs)} bytes a job, ${Math.round(sealed.bytes / sealed.events)} bytes an event; ` +
      `the same events in plain text ${(plain.bytes / 1024 / 1024).toFixed(1)} MB, ${Math.round(plain.bytes / jobs)} bytes a job; ratio ${(sealed.bytes / plain.bytes).toFixed(2)}`,
  );
}

async function storeSize(jobs: number, sealing: boolean): Promise<{ bytes: number; events: number }> {
  const rows: StoredEventRow[] = JSON.parse(readFileSync(FIXTURE, 'utf8')).events;
  const sample = (type: string) => {
    const row =
      rows.find((candidate) => candidate.type === type && candidate.data.webhookUrl !== null) ??
      rows.find((candidate) => candidate.type === type);
    if (row === undefined) throw new Error(`the fixture has no ${type}`);
    return row;
  };
  const database = await createTestDatabase('bench_store_size');
  const db = createKnex(database.url);
  const inner = new PostgresEventStore({ connectionString: database.url, poolSize: 8 });
  try {
    await inner.migrate();
    const keyStore = new PostgresDataKeyStore(db);
    await keyStore.migrate();
    const store = sealing
      ? new SealingEventStore(inner, new AccountDataKeys(keyStore, new MasterKeys(masterKey(randomBytes(32)))))
      : inner;
    let accountId = randomUUID();
    for (let job = 0; job < jobs; job += 1) {
      if (job % 100 === 0) accountId = randomUUID();
      const jobId = randomUUID();
      const events = (types: string[]): EventToAppend[] =>
        types.map((type) => ({
          id: randomUUID(),
          type,
          data: { ...sample(type).data, accountId, jobId },
          metadata: sample(type).metadata,
        }));
      await store.appendToStream(`download-${jobId}`, events(JOB_EVENTS), { expectedRevision: 'no_stream' });
      await store.appendToStream(`account-${accountId}`, events(ACCOUNT_EVENTS), { expectedRevision: 'any' });
    }
    await db.raw('VACUUM ANALYZE es_events');
    const { rows: sizes } = (await db.raw(
      `SELECT pg_total_relation_size('es_events') + pg_total_relation_size('es_streams') AS bytes, (SELECT count(*) FROM es_events) AS events`,
    )) as { rows: Array<{ bytes: string; events: string }> };
    return { bytes: Number(sizes[0]?.bytes), events: Number(sizes[0]?.events) };
  } finally {
    await inner.close();
    await db.destroy();
    await database.drop();
  }
}
