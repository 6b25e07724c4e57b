import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandHandler } from '../../../application/command-handler.js';
import { GetDownloadJob } from '../../../application/downloads/get-download-job.js';
import { ExtractionError } from '../../../application/ports/extractor/extraction-error.js';
import type { DownloadMediaRequest } from '../../../application/ports/extractor/media-downloader.js';
import type { Logger } from '../../../application/ports/logger.js';
import { RunDownload } from '../../../application/processes/run-download.js';
import { SettleDownloadBilling } from '../../../application/processes/settle-download-billing.js';
import { routeEventToWork } from '../../../application/processes/work-routing.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../domain/download-job/decider.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { LocalDirectoryFileStore } from '../../../infrastructure/files/local-directory-file-store.js';
import { TemporaryWorkDirs } from '../../../infrastructure/files/temporary-work-dirs.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../infrastructure/system/system-clock.js';
import { ScriptedExtractor, writeDownloadedAudio } from '../../support/scripted-extractor.js';
import { givenAccount } from '../../support/givens/given-account.js';
import { givenQueuedDownload } from '../../support/givens/given-download.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };
const noAnomalies = {
  record(kind: string) {
    throw new Error(`unexpected anomaly ${kind}`);
  },
};

describe('download processes (worker side)', () => {
  const ids = new RandomIds();
  const clock = new SystemClock();
  const now = () => new Date().toISOString();

  async function setUp(outcome: (request: DownloadMediaRequest) => Promise<void>, maxAttempts = 3) {
    const store = new InMemoryEventStore();
    const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids);
    const jobs = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, ids);
    const root = await mkdtemp(path.join(tmpdir(), 'processes-'));
    const run = new RunDownload({
      jobs,
      // The download's outcome is each test's; the real extractor is exercised against the fixture platform elsewhere.
      extractor: new ScriptedExtractor({
        download: async (request) => {
          await outcome(request);
          return writeDownloadedAudio(request, Buffer.alloc(1234));
        },
      }),
      files: new LocalDirectoryFileStore(path.join(root, 'files')),
      workDirs: new TemporaryWorkDirs(path.join(root, 'work')),
      clock,
      logger: silent,
      options: { maxAttempts, retryBaseDelayMs: 1000, retryMaxDelayMs: 60_000 },
    });
    const accountId = await givenAccount(store);
    const jobId = await givenQueuedDownload(store, { accountId });
    const message = { jobId, accountId, occurredAt: now() };
    const types = async () => (await store.readStream(`download-${jobId}`)).map((event) => event.type);
    return { store, accounts, jobs, run, message, types, accountId, jobId };
  }
  const delivery = (attempt: number) => ({
    attempt,
    leaseId: `lease-${attempt}`,
    messageId: 'message',
    heartbeat() {},
  });

  it('keeps its delivery alive while the download waits for its turn, before any progress', async () => {
    let beats = 0;
    const { run, message, types } = await setUp(async (request) => {
      // As the extractor reports a platform back-off, a slot, spacing or a yt-dlp update it waits for.
      request.onWaiting?.();
      request.onWaiting?.();
    });
    assert.deepEqual(await run.handle(message, { ...delivery(1), heartbeat: () => (beats += 1) }), { kind: 'done' });
    assert.ok(beats >= 2, `${beats} heartbeats`);
    assert.deepEqual(await types(), ['DownloadRequested', 'DownloadStarted', 'DownloadCompleted']);
  });

  it('starts, downloads, stores and completes a job; a redelivery afterwards does nothing', async () => {
    const { run, message, types } = await setUp(async () => {});
    assert.deepEqual(await run.handle(message, delivery(1)), { kind: 'done' });
    assert.deepEqual(await types(), ['DownloadRequested', 'DownloadStarted', 'DownloadCompleted']);
    assert.deepEqual(await run.handle(message, delivery(2)), { kind: 'done' });
    assert.deepEqual(await types(), ['DownloadRequested', 'DownloadStarted', 'DownloadCompleted']);
  });

  it('fails at once with the code of a final error', async () => {
    const { run, message, jobs, jobId } = await setUp(async () => {
      throw new ExtractionError('PRIVATE_VIDEO', 'Private video');
    });
    assert.deepEqual(await run.handle(message, delivery(1)), { kind: 'done' });
    const { state } = await jobs.load(jobId);
    assert.equal(state.status, 'FAILED');
    assert.equal(state.status === 'FAILED' && state.errorCode, 'PRIVATE_VIDEO');
  });

  it('retries transient errors with growing delays, then fails with NETWORK_ERROR on the last attempt', async () => {
    const { run, message, jobs, jobId } = await setUp(async () => {
      throw new ExtractionError('NETWORK_ERROR', 'HTTP Error 503');
    });
    assert.deepEqual(await run.handle(message, delivery(1)), { kind: 'retry', afterMs: 1000 });
    assert.deepEqual(await run.handle(message, delivery(2)), { kind: 'retry', afterMs: 2000 });
    assert.deepEqual(await run.handle(message, delivery(3)), { kind: 'done' });
    const { state } = await jobs.load(jobId);
    assert.equal(state.status === 'FAILED' && state.errorCode, 'NETWORK_ERROR');
  });

  it('fails a job whose failed attempts, counted in its stream, reached the limit, so it never stays IN_PROGRESS', async () => {
    const { run, message, jobs, jobId } = await setUp(async () => {}, 2);
    for (const leaseId of ['a', 'b']) {
      await jobs.handle(jobId, { type: 'StartJob', data: { jobId, leaseId, messageId: 'm1', now: now() } });
      await jobs.handle(jobId, {
        type: 'RecordAttemptFailure',
        data: { jobId, leaseId, errorCode: 'NETWORK_ERROR', reason: 'x', now: now() },
      });
    }
    assert.deepEqual(await run.handle(message, delivery(1)), { kind: 'done' });
    const { state } = await jobs.load(jobId);
    assert.equal(state.status, 'FAILED');
    assert.equal(state.status === 'FAILED' && state.errorCode, 'NETWORK_ERROR');
  });

  it('lets an error of its own infrastructure through for the queue to retry, without spending an attempt', async () => {
    const { run, message, jobs, jobId } = await setUp(async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    }, 1);
    for (let n = 1; n <= 3; n += 1) await assert.rejects(run.handle(message, delivery(n)), /ECONNREFUSED/);
    const { state } = await jobs.load(jobId);
    assert.equal(state.status, 'IN_PROGRESS');
    assert.equal(state.status === 'IN_PROGRESS' && state.failedAttempts, 0);
  });

  it('charges a completed job once however often billing is delivered, and releases a failed one uncharged', async () => {
    const ok = await setUp(async () => {});
    await ok.run.handle(ok.message, delivery(1));
    const settle = new SettleDownloadBilling(ok.jobs, ok.accounts, clock, ok.store, noAnomalies);
    for (let i = 0; i < 3; i += 1) await settle.handle(ok.message);
    const charges = (await ok.store.readStream(`account-${ok.accountId}`)).filter(
      (event) => event.type === 'BandwidthCharged',
    );
    assert.equal(charges.length, 1);
    assert.equal(charges[0].data.bandwidthMb, 20);

    const bad = await setUp(async () => {
      throw new ExtractionError('VIDEO_NOT_FOUND', 'gone');
    });
    await bad.run.handle(bad.message, delivery(1));
    await new SettleDownloadBilling(bad.jobs, bad.accounts, clock, bad.store, noAnomalies).handle(bad.message);
    const account = (await bad.accounts.load(bad.accountId)).state;
    assert.deepEqual(account.pendingJobs, []);
    assert.equal(account.usage.download_count, 0);
  });

  it("marks every command a worker issues as caused by the event that set off the work, in that event's correlation", async () => {
    const { run, store, accounts, jobs, jobId, accountId } = await setUp(async () => {});
    const [requested] = await store.readStream(`download-${jobId}`);
    const [downloadWork] = routeEventToWork(requested);
    await run.handle(downloadWork.payload, delivery(1));
    const [, started, completed] = await store.readStream(`download-${jobId}`);
    for (const event of [started, completed]) {
      assert.equal(event.metadata.causationId, requested.id);
      assert.equal(event.metadata.correlationId, requested.metadata.correlationId);
    }
    const [billingWork] = routeEventToWork(completed);
    await new SettleDownloadBilling(jobs, accounts, clock, store, noAnomalies).handle(billingWork.payload);
    const charge = (await store.readStream(`account-${accountId}`)).find((event) => event.type === 'BandwidthCharged');
    assert.equal(charge?.metadata.causationId, completed.id);
  });

  it("answers a poll from the job stream when the read model has not caught up, and hides other accounts' jobs", async () => {
    const { jobs, jobId, accountId } = await setUp(async () => {});
    const emptyReadModel = { get: async () => null, list: async () => [] };
    const query = new GetDownloadJob(emptyReadModel, jobs);
    const view = await query.execute(accountId, jobId);
    assert.equal(view?.status, 'IN_QUEUE');
    assert.equal(view?.startedAt, null);
    assert.equal(await query.execute(randomUUID(), jobId), null);
    assert.equal(await query.execute(accountId, randomUUID()), null);
  });
});
