import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CommandHandler } from '../../../application/command-handler.js';
import { lookUpClientDownloadLinks } from '../../../application/lookups/look-up-client-download-links.js';
import { lookUpVideoInfo } from '../../../application/lookups/look-up-video-info.js';
import { lookupJobSteps } from '../../../application/lookups/lookup-job-steps.js';
import { LISTING_SETTLE_RETRY } from '../../../application/lookups/retry-through-outage.js';
import type { Clock } from '../../../application/ports/clock.js';
import type { Logger } from '../../../application/ports/logger.js';
import { ReconcilePendingLookups } from '../../../application/processes/reconcile-pending-lookups.js';
import { ReleaseOrphanedLookup } from '../../../application/processes/release-orphaned-lookup.js';
import { SettleLookupBilling } from '../../../application/processes/settle-lookup-billing.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import {
  CLIENT_DOWNLOAD_JOB,
  CLIENT_DOWNLOAD_JOB_CATEGORY,
  clientDownloadJobDecider,
} from '../../../domain/lookup-job/client-download-job.js';
import { INFO_JOB, INFO_JOB_CATEGORY, infoJobDecider } from '../../../domain/lookup-job/info-job.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { givenAccount } from '../../support/givens/given-account.js';
import {
  givenPendingClientDownloadJob,
  givenPendingInfoJob,
  givenReservedLookup,
} from '../../support/givens/given-lookup.js';
import { ScriptedExtractor } from '../../support/scripted-extractor.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };
/** Nothing scripted: these lookups are never run. */
const noExtractor = new ScriptedExtractor();

describe('reconciling lookups pending past the limit', () => {
  it('fails pending jobs and releases their units, settles finished ones, abandons and releases reservations without a job, releases stale listings, and leaves recent ones alone', async () => {
    const store = new InMemoryEventStore();
    const ids = new RandomIds();
    let nowMs = Date.parse('2026-05-01T00:00:00Z');
    const clock: Clock = { now: () => new Date(nowMs) };
    const at = () => new Date(nowMs).toISOString();
    const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids);
    const infoJobs = new CommandHandler(store, infoJobDecider, INFO_JOB_CATEGORY, ids);
    const clientJobs = new CommandHandler(store, clientDownloadJobDecider, CLIENT_DOWNLOAD_JOB_CATEGORY, ids);
    const steps = {
      info: lookupJobSteps(INFO_JOB, infoJobs, lookUpVideoInfo(noExtractor)),
      client_download: lookupJobSteps(CLIENT_DOWNLOAD_JOB, clientJobs, lookUpClientDownloadLinks(noExtractor)),
    };
    const accountId = await givenAccount(store, { addOns: ['client_download', 'channel_list'], now: at() });
    const given = (jobId: string) => ({ accountId, jobId, now: at(), expiresAt: at() });
    const [pendingInfo, succeededInfo, pendingClient, orphan, listing, recent] = Array.from({ length: 6 }, () =>
      randomUUID(),
    );
    await givenPendingInfoJob(store, given(pendingInfo));
    await givenPendingInfoJob(store, given(succeededInfo));
    await infoJobs.handle(succeededInfo, {
      type: 'CompleteInfo',
      data: { jobId: succeededInfo, result: { title: 't', duration: 1, url: 'u' }, now: at() },
    });
    await givenPendingClientDownloadJob(store, given(pendingClient));
    await givenReservedLookup(store, 'client_download', given(orphan));
    await givenReservedLookup(store, 'channel_list', given(listing));
    nowMs += 2 * 3_600_000;
    await givenPendingInfoJob(store, given(recent));

    const settle = new SettleLookupBilling(accounts, clock, store, { record() {} });
    const release = new ReleaseOrphanedLookup(accounts, clock, {
      graceMs: 60_000,
      listingTimeoutMs: 300_000,
      jobs: steps,
    });
    const reconcile = new ReconcilePendingLookups({
      store,
      pending: { accountIds: async () => [accountId] },
      jobs: steps,
      accounts,
      settle,
      releaseOrphan: release,
      clock,
      logger: silent,
      pendingLimitMs: 3_600_000,
    });
    assert.deepEqual(await reconcile.runOnce(), { failedJobs: 2, settledReservations: 5 });

    assert.equal((await steps.info.load(pendingInfo)).status, 'failed');
    assert.equal((await steps.info.load(succeededInfo)).status, 'success');
    assert.equal((await steps.client_download.load(pendingClient)).status, 'failed');
    assert.equal((await steps.client_download.load(orphan)).status, 'abandoned');
    assert.equal((await steps.info.load(recent)).status, 'pending');
    const { state } = await accounts.load(accountId);
    assert.deepEqual(
      (state.pendingLookups ?? []).map((lookup) => lookup.lookupId),
      [recent],
    );
    assert.deepEqual(
      [state.usage.info, state.usage.client_download, state.usage.channel_list],
      [1, 0, 0],
      'only the successful job was charged',
    );
    assert.deepEqual(
      await reconcile.runOnce(),
      { failedJobs: 0, settledReservations: 0 },
      'a second sweep finds nothing',
    );
  });
  it('releases a channel listing’s reservation once its request is surely over, long before the pending limit, and nothing younger nor of other features', async () => {
    const store = new InMemoryEventStore();
    const ids = new RandomIds();
    let nowMs = Date.parse('2026-05-01T00:00:00Z');
    const clock: Clock = { now: () => new Date(nowMs) };
    const at = () => new Date(nowMs).toISOString();
    const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids);
    const infoJobs = new CommandHandler(store, infoJobDecider, INFO_JOB_CATEGORY, ids);
    const clientJobs = new CommandHandler(store, clientDownloadJobDecider, CLIENT_DOWNLOAD_JOB_CATEGORY, ids);
    const steps = {
      info: lookupJobSteps(INFO_JOB, infoJobs, lookUpVideoInfo(noExtractor)),
      client_download: lookupJobSteps(CLIENT_DOWNLOAD_JOB, clientJobs, lookUpClientDownloadLinks(noExtractor)),
    };
    const accountId = await givenAccount(store, { addOns: ['client_download', 'channel_list'], now: at() });
    const reserve = (jobId: string, feature: 'info' | 'client_download' | 'channel_list') =>
      givenReservedLookup(store, feature, { accountId, jobId, now: at() });
    const [oldListing, info, clientDownload, recentListing] = Array.from({ length: 4 }, () => randomUUID());
    const graceMs = 60_000;
    const listingTimeoutMs = 300_000;
    // A listing's request ends within its timeout plus the settlement's retries; the releaser adds its grace on top.
    const listingOverMs = graceMs + listingTimeoutMs + LISTING_SETTLE_RETRY.withinMs;
    await reserve(oldListing, 'channel_list');
    await reserve(info, 'info');
    await reserve(clientDownload, 'client_download');
    nowMs += 60_000;
    await reserve(recentListing, 'channel_list');
    nowMs += listingOverMs - 60_000;

    const settle = new SettleLookupBilling(accounts, clock, store, { record() {} });
    const release = new ReleaseOrphanedLookup(accounts, clock, { graceMs, listingTimeoutMs, jobs: steps });
    const reconcile = new ReconcilePendingLookups({
      store,
      pending: { accountIds: async () => [accountId] },
      jobs: steps,
      accounts,
      settle,
      releaseOrphan: release,
      clock,
      logger: silent,
      pendingLimitMs: 3_600_000,
    });
    const pending = async () =>
      ((await accounts.load(accountId)).state.pendingLookups ?? []).map((lookup) => lookup.lookupId).sort();

    assert.deepEqual(await reconcile.runOnce(), { failedJobs: 0, settledReservations: 1 });
    assert.deepEqual(
      await pending(),
      [info, clientDownload, recentListing].sort(),
      'only the listing whose request is over',
    );

    nowMs += 59_000;
    assert.deepEqual(
      await reconcile.runOnce(),
      { failedJobs: 0, settledReservations: 0 },
      'a listing a second short of its bound may still be settling',
    );
    nowMs += 1_000;
    assert.deepEqual(await reconcile.runOnce(), { failedJobs: 0, settledReservations: 1 });
    assert.deepEqual(
      await pending(),
      [info, clientDownload].sort(),
      'info and client-download reservations wait for the pending limit',
    );

    nowMs = Date.parse('2026-05-01T01:00:00Z');
    assert.deepEqual(await reconcile.runOnce(), { failedJobs: 0, settledReservations: 2 });
    assert.deepEqual(await pending(), []);
    const { state } = await accounts.load(accountId);
    assert.deepEqual(
      [state.usage.info, state.usage.client_download, state.usage.channel_list],
      [0, 0, 0],
      'nothing charged',
    );
    assert.equal(
      (await store.readStream(`${ACCOUNT_CATEGORY}-${accountId}`)).filter((event) => event.type === 'LookupReleased')
        .length,
      4,
      'each released once',
    );
  });
});
