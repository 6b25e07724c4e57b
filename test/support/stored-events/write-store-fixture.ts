import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import pg from 'pg';
import type { AccountCommandHandler } from '../../../application/accounts/account-commands.js';
import { AccountAdministration } from '../../../application/accounts/account-administration.js';
import { ReplayAccountLedger } from '../../../application/audit/replay-account-ledger.js';
import { ReadWebhookDeliveryHistory } from '../../../application/audit/webhook-delivery-history.js';
import type { EventStore } from '../../../application/ports/event-store.js';
import { TOKENS } from '../../../infrastructure/composition/tokens.js';
import {
  FIXTURE_CLIENT_DOWNLOAD_PATHS,
  FIXTURE_DUBBED,
  FIXTURE_MISSING_VIDEO_ID,
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../../fixtures/platform/fixture-platform.js';
import { apiClient } from '../api-client.js';
import { type TestService, startTestService } from '../test-service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.js';
import { foldStoredStreams } from './fold-stored-streams.js';
import type { StoredEventRow } from './stored-event-row.js';
import type { PolledJob, WrittenStoreFixture } from './written-store-fixture.js';

/** A test key only: it opens the fixture's API keys and nothing else. */
const FIXTURE_MASTER_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
/** What a reader must be configured with to answer as the writer did: its keys and its links' lifetimes. */
const READER_ENV = {
  MASTER_KEY: FIXTURE_MASTER_KEY,
  FILE_RETENTION_SECONDS: '8',
  FILE_RETENTION_BELOW_LINK_TTL: 'allow',
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes a store with events of every kind the service records, through its
 * API and its operators' use cases against the fixture platform, and saves
 * its rows with what the service answered about them.
 * Usage: node build/test/support/stored-events/write-store-fixture.js <output.json>
 */
async function main(output: string): Promise<void> {
  const platform = await startFixturePlatform();
  // The first delivery is refused, so a retry is recorded too.
  const receiver = await startWebhookReceiver((n) => ({ status: n === 1 ? 500 : 200 }));
  const service = await startTestService({
    label: 'store_fixture',
    roles: ['api', 'projector', 'worker', 'sweeper'],
    env: {
      ...serviceEnvFor(platform),
      ...READER_ENV,
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE_MS: Array(9).fill('200').join(','),
      DOWNLOAD_MAX_ATTEMPTS: '2',
      DOWNLOAD_RETRY_BASE_MS: '100',
      RESERVATION_GRACE_MS: '1000',
      FILE_SWEEP_INTERVAL_SECONDS: '1',
    },
  });
  try {
    const fixture = await writeStore(service, platform, receiver);
    await writeFile(output, `${JSON.stringify(fixture, null, 1)}\n`);
  } finally {
    await service.stop();
    await receiver.stop();
    await platform.stop();
  }
}

async function writeStore(
  service: TestService,
  platform: FixturePlatform,
  receiver: WebhookReceiver,
): Promise<WrittenStoreFixture> {
  const call = apiClient(service.url);
  const admin = service.service.container.resolve(AccountAdministration);
  const alpha = await service.createAccount({
    planId: 'growth',
    addOns: ['client_download', 'channel_list'],
    name: 'Alpha',
    email: 'alpha@example.com',
  });
  const spare = await admin.issueKey(alpha.accountId);
  await admin.revokeKey(alpha.accountId, spare.keyId);
  await admin.grantExtraUnits(alpha.accountId, 'info', 5, 'goodwill');
  const beta = await service.createAccount({ planId: 'starter', name: 'Beta', email: 'beta@example.com' });
  await admin.changePlan(beta.accountId, 'growth');
  await admin.setAddOn(beta.accountId, 'channel_list', true);
  await admin.setAddOn(beta.accountId, 'client_download', true);
  await admin.setAddOn(beta.accountId, 'client_download', false);
  await admin.scheduleCancellation(beta.accountId);

  const submit = async (key: string, path: string, json: unknown): Promise<PolledJob> => {
    const response = await call('POST', path, { key, json });
    if (response.status !== 200)
      throw new Error(`${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return { path: `${path}/${response.body.jobId}`, apiKey: key, view: null };
  };
  const key = alpha.apiKey;
  const webhookUrl = receiver.url('/hook');
  const completed = await submit(key, '/api/v2/download', {
    url: platform.watchUrl(FIXTURE_VIDEOS.clip.id),
    format: 'audio',
    webhookUrl,
  });
  const failed = await submit(key, '/api/v2/download', {
    url: platform.watchUrl(FIXTURE_VIDEOS.missing.id),
    format: 'audio',
    webhookUrl,
  });
  const cancelled = await submit(key, '/api/v2/download', {
    url: platform.watchUrl(FIXTURE_VIDEOS.slow.id),
    format: 'audio',
  });
  await call('DELETE', cancelled.path, { key });
  const jobs = [
    completed,
    failed,
    cancelled,
    await submit(key, '/api/v2/info', { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id) }),
    await submit(key, '/api/v2/info', { url: platform.watchUrl(FIXTURE_DUBBED.id), includeAudioTracks: true }),
    await submit(key, '/api/v2/info', { url: platform.watchUrl('ratelimit-x1') }),
    await submit(key, '/api/v2/client-download', {
      url: platform.pageUrl(FIXTURE_CLIENT_DOWNLOAD_PATHS['photo sharing /p'](FIXTURE_VIDEOS.clip.id)),
    }),
    await submit(key, '/api/v2/client-download', {
      url: platform.pageUrl(FIXTURE_CLIENT_DOWNLOAD_PATHS['photo sharing /p'](FIXTURE_MISSING_VIDEO_ID)),
    }),
  ];
  for (const account of [alpha, beta]) {
    const listing = await call('POST', '/api/v2/list-channel', {
      key: account.apiKey,
      json: { channelUrl: platform.channelUrl(), maxVideos: 3 },
    });
    if (listing.status !== 200)
      throw new Error(`list-channel answered ${listing.status}: ${JSON.stringify(listing.body)}`);
  }

  for (const job of jobs) await untilFinished(call, job);
  await receiver.waitFor(3, 60_000);
  const store = service.service.container.resolve<EventStore>(TOKENS.eventStore);
  await abandonLookups(service, store, alpha.accountId);
  await waitUntil('the completed file is deleted', async () =>
    (await store.readStream(jobStream(completed))).some((event) => event.type === 'FileDeleted'),
  );
  await waitUntil('both deliveries are recorded', async () => {
    const histories = await Promise.all(
      [completed, failed].map((job) => new ReadWebhookDeliveryHistory(store).execute(jobIdOf(job))),
    );
    return histories.every((history) => history?.attempts.at(-1)?.outcome === 'acknowledged');
  });
  await service.settle();
  return record(service, store, [alpha, beta], jobs, [completed, failed]);
}

/** Reservations whose submission died before writing its job: the releaser closes their streams and releases them. */
async function abandonLookups(service: TestService, store: EventStore, accountId: string): Promise<void> {
  const accounts = service.service.container.resolve<AccountCommandHandler>(TOKENS.accountCommands);
  const orphans = [
    { feature: 'info', stream: 'info', event: 'InfoAbandoned' },
    { feature: 'client_download', stream: 'clientdownload', event: 'ClientDownloadAbandoned' },
  ] as const;
  for (const { feature, stream, event } of orphans) {
    const lookupId = randomUUID();
    const now = new Date().toISOString();
    await accounts.handle(accountId, {
      type: 'ReserveLookup',
      data: { lookupId, feature, units: 1, subject: `orphaned ${feature}`, now },
    });
    await waitUntil(`${event} is recorded`, async () =>
      (await store.readStream(`${stream}-${lookupId}`)).some((recorded) => recorded.type === event),
    );
  }
}

async function record(
  service: TestService,
  store: EventStore,
  accounts: Array<{ accountId: string; apiKey: string }>,
  jobs: PolledJob[],
  delivered: PolledJob[],
): Promise<WrittenStoreFixture> {
  const call = apiClient(service.url);
  const ledger = service.service.container.resolve(ReplayAccountLedger);
  const polled = await Promise.all(
    jobs.map(async (job) => ({ ...job, view: (await call('GET', job.path, { key: job.apiKey })).body })),
  );
  const recordedAccounts = await Promise.all(
    accounts.map(async ({ accountId, apiKey }) => ({
      accountId,
      apiKey,
      me: (await call('GET', '/api/v2/me', { key: apiKey })).body,
      ledger: (await ledger.execute(accountId)) as NonNullable<Awaited<ReturnType<ReplayAccountLedger['execute']>>>,
    })),
  );
  const webhookDeliveries = await Promise.all(
    delivered.map(async (job) => {
      const history = await new ReadWebhookDeliveryHistory(store).execute(jobIdOf(job));
      if (history === null) throw new Error(`No webhook delivery history for job ${jobIdOf(job)}`);
      return { jobId: jobIdOf(job), history };
    }),
  );
  const writtenAt = new Date().toISOString();
  const events = await storedRows(service.config.storage.databaseUrl);
  return {
    writtenAt,
    env: READER_ENV,
    accounts: recordedAccounts,
    jobs: polled,
    webhookDeliveries,
    states: foldStoredStreams(events),
    events,
  };
}

/** The rows exactly as stored, in the order readers see them. */
async function storedRows(databaseUrl: string): Promise<StoredEventRow[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT stream_name, stream_revision, event_id, event_type, data, metadata, created_at FROM es_events ORDER BY epoch, transaction_id, global_position`,
    );
    return rows.map((row) => ({
      streamName: row.stream_name,
      revision: Number(row.stream_revision),
      id: row.event_id,
      type: row.event_type,
      data: row.data,
      metadata: row.metadata,
      createdAt: (row.created_at as Date).toISOString(),
    }));
  } finally {
    await client.end();
  }
}

const jobIdOf = (job: PolledJob) => job.path.split('/').at(-1) ?? '';
const jobStream = (job: PolledJob) => `download-${jobIdOf(job)}`;

async function untilFinished(call: ReturnType<typeof apiClient>, job: PolledJob): Promise<void> {
  await waitUntil(`${job.path} finishes`, async () => {
    const { body } = await call('GET', job.path, { key: job.apiKey });
    return !['pending', 'IN_QUEUE', 'IN_PROGRESS'].includes(body.status);
  });
}

async function waitUntil(what: string, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(200);
  }
}

main(process.argv[2] ?? 'test/fixtures/stores/written-by-2026-11.json').then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
