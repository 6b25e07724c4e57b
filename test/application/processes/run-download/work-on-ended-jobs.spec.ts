import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandHandler } from '../../../../application/command-handler.js';
import type { DownloadJobCommandHandler } from '../../../../application/downloads/download-job-commands.js';
import type { MediaDownloader } from '../../../../application/ports/extractor/media-downloader.js';
import type { StoredFileInfo } from '../../../../application/ports/file-store.js';
import type { Logger } from '../../../../application/ports/logger.js';
import { RunDownload } from '../../../../application/processes/run-download.js';
import { RunningDownloads } from '../../../../application/processes/running-downloads.js';

import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../../domain/download-job/decider.js';
import { InMemoryEventStore } from '../../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { LocalDirectoryFileStore } from '../../../../infrastructure/files/local-directory-file-store.js';
import { TemporaryWorkDirs } from '../../../../infrastructure/files/temporary-work-dirs.js';
import { RandomIds } from '../../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../../infrastructure/system/system-clock.js';
import { ScriptedExtractor, writeDownloadedAudio } from '../../../support/scripted-extractor.js';
import { waitFor } from '../../../support/wait-for.js';
import { givenAccount } from '../../../support/givens/given-account.js';
import { givenQueuedDownload } from '../../../support/givens/given-download.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

/** A download script that writes a small file after running `during` (a cancellation arriving while yt-dlp runs). */
const downloadAfter =
  (during: () => Promise<unknown>): MediaDownloader['download'] =>
  async (request) => {
    await during();
    return writeDownloadedAudio(request, 'downloaded');
  };

/** A local store whose uploads are recorded and, when told, hang until their signal aborts or they are let through. */
class WatchedFileStore extends LocalDirectoryFileStore {
  readonly uploads: string[] = [];
  hang = false;
  uploading = false;
  abortedUpload = false;
  private letThrough: () => void = () => undefined;

  override async put(key: string, localPath: string, options: { signal?: AbortSignal } = {}): Promise<StoredFileInfo> {
    this.uploads.push(key);
    if (this.hang) {
      this.uploading = true;
      await new Promise<void>((resolve, reject) => {
        this.letThrough = resolve;
        options.signal?.addEventListener('abort', () => {
          this.abortedUpload = true;
          reject(options.signal?.reason);
        });
      });
    }
    return super.put(key, localPath, options);
  }

  finishHungUpload(): void {
    this.letThrough();
  }
}

describe('work on a job that ended under its worker', () => {
  const ids = new RandomIds();
  const now = () => new Date().toISOString();
  let store: InMemoryEventStore;
  let jobs: DownloadJobCommandHandler;
  let files: WatchedFileStore;
  let extractor: ScriptedExtractor;
  let running: RunningDownloads;
  let run: RunDownload;

  beforeEach(async () => {
    store = new InMemoryEventStore();
    jobs = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, ids);
    const root = await mkdtemp(path.join(tmpdir(), 'ended-jobs-'));
    files = new WatchedFileStore(path.join(root, 'files'));
    extractor = new ScriptedExtractor({ download: downloadAfter(async () => undefined) });
    running = new RunningDownloads();
    run = new RunDownload({
      jobs,
      extractor,
      files,
      workDirs: new TemporaryWorkDirs(path.join(root, 'work')),
      clock: new SystemClock(),
      logger: silent,
      options: { maxAttempts: 3, retryBaseDelayMs: 1000, retryMaxDelayMs: 60_000 },
      running,
    });
  });

  async function queuedJob(): Promise<{ jobId: string; accountId: string; occurredAt: string }> {
    const accountId = await givenAccount(store);
    const jobId = await givenQueuedDownload(store, { accountId });
    return { jobId, accountId, occurredAt: now() };
  }

  const failJob = (jobId: string) =>
    jobs.handle(jobId, {
      type: 'FailJob',
      data: { jobId, errorCode: 'NETWORK_ERROR', reason: 'Not finished within 21600 s of its submission', now: now() },
    });
  const delivery = { attempt: 1, leaseId: '9:1', messageId: '9', heartbeat() {} };

  it('does not upload the file of a job that failed while it downloaded, even when no cancellation reached it', async () => {
    const message = await queuedJob();
    extractor.script.download = downloadAfter(() => failJob(message.jobId));
    assert.deepEqual(await run.handle(message, delivery), { kind: 'done' });
    assert.deepEqual(files.uploads, []);
  });

  it('does not upload the file of a delivery that another one took over meanwhile', async () => {
    const message = await queuedJob();
    extractor.script.download = downloadAfter(() =>
      jobs.handle(message.jobId, {
        type: 'StartJob',
        data: { jobId: message.jobId, leaseId: '9:2', messageId: '9', now: now() },
      }),
    );
    assert.deepEqual(await run.handle(message, delivery), { kind: 'done' });
    assert.deepEqual(files.uploads, []);
    assert.equal(
      (await jobs.load(message.jobId)).state.status,
      'IN_PROGRESS',
      'the job stays with the delivery that took it over',
    );
  });

  it('stops an upload under way when the job is cancelled, and stores nothing', async () => {
    const message = await queuedJob();
    files.hang = true;
    const handled = run.handle(message, delivery);
    let settled = false;
    void handled.finally(() => (settled = true)).catch(() => undefined);
    await waitFor('the upload started', () => files.uploading, 20_000);
    // As DELETE and the reconciler do: the job fails, then the cancellation is announced.
    await failJob(message.jobId);
    running.cancel(message.jobId);
    await waitFor('the run ended', () => settled, 10_000).catch(() => files.finishHungUpload());
    assert.equal(files.abortedUpload, true, 'the upload was aborted');
    assert.deepEqual(await handled, { kind: 'done' });
    assert.equal(await files.stat(files.uploads[0]), null);
  });
});
