import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import { OperatorTokens } from '../../application/operators/operator-tokens.js';
import { ReplayAccountLedger } from '../../application/audit/replay-account-ledger.js';
import type { EventStore } from '../../application/ports/event-store.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';
import { type WebhookReceiver, startWebhookReceiver } from '../support/webhook-receiver.js';

/** Every row of every table of the database that holds `needle` anywhere, as `table: row`. */
async function rowsHolding(db: Knex, needle: string): Promise<string[]> {
  const { rows: tables } = (await db.raw(
    `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  )) as { rows: Array<{ name: string }> };
  const found: string[] = [];
  for (const { name } of tables) {
    const { rows } = (await db.raw(`SELECT t::text AS row FROM ${name} t WHERE position(? in t::text) > 0`, [
      needle,
    ])) as {
      rows: Array<{ row: string }>;
    };
    found.push(...rows.map((row) => `${name}: ${row.row.slice(0, 300)}`));
  }
  return found;
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

// In both modes: PostgreSQL with JetStream, and PGlite with the in-process queue.
for (const mode of ['server', 'embedded'] as const)
  describe(`end to end (${mode} mode): erasing an account keeps its amounts and leaves none of its personal data readable`, function () {
    this.timeout(180_000);
    let platform: FixturePlatform;
    let receiver: WebhookReceiver;
    let service: TestService;
    let call: ReturnType<typeof apiClient>;
    let operator: string;

    before(async () => {
      platform = await startFixturePlatform();
      receiver = await startWebhookReceiver();
      service = await startTestService({
        label: 'erasure',
        embedded: mode === 'embedded',
        env: { ...serviceEnvFor(platform), WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
      });
      call = apiClient(service.url);
      operator = (await service.service.container.resolve(OperatorTokens).issue('privacy desk', 'write')).token;
      await service.settle();
    });
    after(async () => {
      await service?.stop();
      await receiver?.stop();
      await platform?.stop();
    });

    const admin = (method: string, route: string, json?: object) =>
      call(method, `/admin/v1${route}`, { key: operator, json });

    it('open, use, erase: the replay balances to the unit, and the email, name and URLs are nowhere to be read', async () => {
      const email = `erin.${Date.now()}@erasable.example`;
      const name = 'Erin Erasable-Person';
      const opened = await admin('POST', '/accounts', { name, email, plan: 'starter' });
      assert.equal(opened.status, 201, JSON.stringify(opened.body));
      const { accountId, apiKey } = opened.body as { accountId: string; apiKey: string };
      const videoUrl = platform.watchUrl(FIXTURE_VIDEOS.clip.id);
      const webhookUrl = receiver.url(`/erasure-hook-${accountId.slice(0, 8)}`);

      const submitted = await call('POST', '/api/v2/download', { key: apiKey, json: { url: videoUrl, webhookUrl } });
      assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
      const info = await call('POST', '/api/v2/info', { key: apiKey, json: { url: videoUrl } });
      assert.equal(info.status, 200, JSON.stringify(info.body));
      await waitFor('the download to complete and its webhook to arrive', async () => {
        const job = await call('GET', `/api/v2/download/${submitted.body.jobId}`, { key: apiKey });
        return job.body.status === 'COMPLETED' && receiver.received.length > 0;
      });
      await waitFor('the info job to succeed', async () => {
        const job = await call('GET', `/api/v2/info/${info.body.jobId}`, { key: apiKey });
        return job.body.status === 'COMPLETED' || job.body.status === 'SUCCEEDED' || job.body.result !== undefined;
      });
      await service.settle();
      const db = service.service.container.resolve(TOKENS.database);
      const filesDir = service.config.storage.filesDir;
      assert.ok((await rowsHolding(db, email)).length > 0, 'before erasure the email is in the read models');
      assert.ok((await filesUnder(path.join(filesDir, accountId))).length > 0, 'the download left a file');
      const before = (await admin('GET', `/accounts/${accountId}`)).body;
      const ledgerBefore = await service.service.container.resolve(ReplayAccountLedger).execute(accountId);

      const erased = await admin('POST', `/accounts/${accountId}/closure`, { erase: true });
      assert.equal(erased.status, 200, JSON.stringify(erased.body));
      assert.equal(erased.body.status, 'closed');
      assert.ok(erased.body.erasedAt !== null);
      assert.deepEqual(erased.body.balances, before.balances, 'the amounts stay');
      assert.notEqual(erased.body.email, email);
      assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 403);

      // The auditors' replay folds the same amounts from the same events, their personal fields shown as erased.
      await service.settle();
      const ledgerAfter = await service.service.container.resolve(ReplayAccountLedger).execute(accountId);
      assert.deepEqual(ledgerAfter?.replayed, ledgerBefore?.replayed);
      assert.deepEqual(ledgerAfter?.differences, []);
      assert.deepEqual(
        ledgerAfter?.entries.map(({ kind, balances }) => ({ kind, balances })),
        ledgerBefore?.entries.map(({ kind, balances }) => ({ kind, balances })),
      );
      const store = service.service.container.resolve<EventStore>(TOKENS.eventStore);
      const [openedEvent] = await store.readStream(`account-${accountId}`, { maxCount: 1 });
      assert.match(String(openedEvent?.data.email), /^\[erased [0-9a-f]{12}\]$/);
      const [requested] = await store.readStream(`download-${submitted.body.jobId}`, { maxCount: 1 });
      assert.match(String(requested?.data.url), /^\[erased /);
      assert.equal(requested?.data.duration, FIXTURE_VIDEOS.clip.duration, 'what is not personal stays readable');

      // Nothing readable is left: not in the event store's tables, the read models or the files.
      for (const needle of [email, name, videoUrl, webhookUrl, FIXTURE_VIDEOS.clip.title])
        assert.deepEqual(await rowsHolding(db, needle), [], `rows still holding ${needle}`);
      assert.deepEqual(await filesUnder(path.join(filesDir, accountId)), []);

      // A second erasure finds nothing more to do and answers alike.
      const again = await admin('POST', `/accounts/${accountId}/closure`, { erase: true });
      assert.equal(again.status, 200);
      assert.equal(again.body.erasedAt, erased.body.erasedAt);
    });
  });
