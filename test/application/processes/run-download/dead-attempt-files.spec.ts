import assert from 'node:assert/strict';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandHandler } from '../../../../application/command-handler.js';
import type { DownloadJobCommandHandler } from '../../../../application/downloads/download-job-commands.js';
import { attemptFileKey } from '../../../../application/downloads/job-file-keys.js';
import type { ExpiredFile, ExpiredFiles } from '../../../../application/ports/expired-files.js';
import { ExtractionError } from '../../../../application/ports/extractor/extraction-error.js';
import type { Logger } from '../../../../application/ports/logger.js';
import { RunDownload } from '../../../../application/processes/run-download.js';
import { SweepExpiredFiles } from '../../../../application/processes/sweep-expired-files.js';

import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../../domain/download-job/decider.js';
import { fileRetentionDecider } from '../../../../domain/file-retention/decider.js';
import { InMemoryEventStore } from '../../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { LocalDirectoryFileStore } from '../../../../infrastructure/files/local-directory-file-store.js';
import { TemporaryWorkDirs } from '../../../../infrastructure/files/temporary-work-dirs.js';
import { RandomIds } from '../../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../../infrastructure/system/system-clock.js';
import { ScriptedExtractor, writeDownloadedAudio } from '../../../support/scripted-extractor.js';
import { givenAccount } from '../../../support/givens/given-account.js';
import { givenQueuedDownload } from '../../../support/givens/given-download.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

/** The sweeper's read model, told which jobs have ended long enough ago. */
class ListedExpiredFiles implements ExpiredFiles {
  jobs: ExpiredFile[] = [];
  async endedBefore(): Promise<ExpiredFile[]> {
    return this.jobs;
  }
}

describe('files of attempts that died before completing', () => {
  const ids = new RandomIds();
  const clock = new SystemClock();
  const now = () => new Date().toISOString();
  let store: InMemoryEventStore;
  let jobs: DownloadJobCommandHandler;
  let root: string;
  let files: LocalDirectoryFileStore;
  let extractor: ScriptedExtractor;
  let run: RunDownload;
  let expired: ListedExpiredFiles;
  let sweeper: SweepExpiredFiles;

  beforeEach(async () => {
    store = new InMemoryEventStore();
    jobs = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, ids);
    root = await mkdtemp(path.join(tmpdir(), 'dead-attempts-'));
    files = new LocalDirectoryFileStore(path.join(root, 'files'));
    // Downloads a small file, unless a test scripts otherwise.
    extractor = new ScriptedExtractor({
      download: (request) => writeDownloadedAudio(request, 'attempt that completed'),
    });
    run = new RunDownload({
      jobs,
      extractor,
      files,
      workDirs: new TemporaryWorkDirs(path.join(root, 'work')),
      clock,
      logger: silent,
      options: { maxAttempts: 3, retryBaseDelayMs: 1000, retryMaxDelayMs: 60_000 },
    });
    expired = new ListedExpiredFiles();
    const retention = new CommandHandler(store, fileRetentionDecider, DOWNLOAD_JOB_CATEGORY, ids);
    sweeper = new SweepExpiredFiles({
      expired,
      files,
      retention,
      clock,
      logger: silent,
      options: { retentionSeconds: 0, batchSize: 100 },
    });
  });

  /** A job whose first attempt stored its file and died before completing. */
  async function jobWithDeadAttempt(): Promise<{ accountId: string; jobId: string; deadKey: string }> {
    const accountId = await givenAccount(store);
    const jobId = await givenQueuedDownload(store, { accountId });
    await jobs.handle(jobId, { type: 'StartJob', data: { jobId, leaseId: '5:1', messageId: '5', now: now() } });
    const deadKey = attemptFileKey(accountId, jobId, 1, 'webm');
    const local = path.join(root, 'dead-attempt.webm');
    await writeFile(local, 'attempt that died');
    await files.put(deadKey, local);
    return { accountId, jobId, deadKey };
  }

  const storedFiles = async (accountId: string) => (await readdir(path.join(root, 'files', accountId))).sort();
  const streamTypes = async (jobId: string) => (await store.readStream(`download-${jobId}`)).map((event) => event.type);

  it('the attempt that completes removes the file of the one that died, and the sweeper removes the completed file', async () => {
    const { accountId, jobId, deadKey } = await jobWithDeadAttempt();
    assert.deepEqual(
      await run.handle(
        { jobId, accountId, occurredAt: now() },
        { attempt: 2, leaseId: '5:2', messageId: '5', heartbeat() {} },
      ),
      { kind: 'done' },
    );
    const completedKey = attemptFileKey(accountId, jobId, 2, 'm4a');
    assert.equal(await files.stat(deadKey), null, 'the dead attempt’s file is gone');
    assert.deepEqual(await storedFiles(accountId), [`${jobId}.2.m4a`]);
    assert.notEqual(await files.stat(completedKey), null);

    expired.jobs = [{ jobId, accountId }];
    assert.equal(await sweeper.sweep(), 1);
    assert.deepEqual(await storedFiles(accountId), []);
    assert.deepEqual((await streamTypes(jobId)).slice(-2), ['DownloadCompleted', 'FileDeleted']);
  });

  it('the attempt that fails the job removes the file of the one that died', async () => {
    const { accountId, jobId } = await jobWithDeadAttempt();
    extractor.script.download = async () => {
      throw new ExtractionError('PRIVATE_VIDEO', 'This video is private');
    };
    assert.deepEqual(
      await run.handle(
        { jobId, accountId, occurredAt: now() },
        { attempt: 2, leaseId: '5:2', messageId: '5', heartbeat() {} },
      ),
      { kind: 'done' },
    );
    assert.equal((await streamTypes(jobId)).at(-1), 'DownloadFailed');
    assert.deepEqual(await storedFiles(accountId), []);
  });

  const cancel = (jobId: string) =>
    jobs.handle(jobId, {
      type: 'FailJob',
      data: { jobId, errorCode: null, reason: 'Cancelled by the client', now: now() },
    });

  it('a job cancelled while an attempt runs loses the files of every attempt, not only that one', async () => {
    const { accountId, jobId } = await jobWithDeadAttempt();
    extractor.script.download = async (request) => {
      await cancel(jobId);
      return writeDownloadedAudio(request, 'attempt that completed');
    };
    assert.deepEqual(
      await run.handle(
        { jobId, accountId, occurredAt: now() },
        { attempt: 2, leaseId: '5:2', messageId: '5', heartbeat() {} },
      ),
      { kind: 'done' },
    );
    assert.equal((await streamTypes(jobId)).at(-1), 'DownloadFailed');
    assert.deepEqual(await storedFiles(accountId), []);
  });

  it('a job cancelled between attempts loses the files of the earlier ones when its message comes back', async () => {
    const { accountId, jobId } = await jobWithDeadAttempt();
    await cancel(jobId);
    assert.deepEqual(
      await run.handle(
        { jobId, accountId, occurredAt: now() },
        { attempt: 2, leaseId: '5:2', messageId: '5', heartbeat() {} },
      ),
      { kind: 'done' },
    );
    assert.deepEqual(await storedFiles(accountId), []);
  });

  it('the sweeper removes every file of an ended job that its workers left, completed or failed, and records it once', async () => {
    // Files the workers could not remove when the jobs ended (a job cancelled by the API, a store that was down).
    const completed = await jobWithDeadAttempt();
    await run.handle(
      { jobId: completed.jobId, accountId: completed.accountId, occurredAt: now() },
      { attempt: 2, leaseId: '5:2', messageId: '5', heartbeat() {} },
    );
    const leftover = path.join(root, 'leftover.webm');
    await writeFile(leftover, 'attempt that died');
    await files.put(completed.deadKey, leftover);
    const failed = await jobWithDeadAttempt();
    // Cancelled by the client: the API fails the job, and the dead attempt's worker is not there to remove its file.
    await jobs.handle(failed.jobId, {
      type: 'FailJob',
      data: { jobId: failed.jobId, errorCode: null, reason: 'Cancelled by the client', now: now() },
    });
    assert.equal((await streamTypes(failed.jobId)).at(-1), 'DownloadFailed');

    expired.jobs = [completed, failed].map(({ jobId, accountId }) => ({ jobId, accountId }));
    assert.equal(await sweeper.sweep(), 2);
    assert.deepEqual(await storedFiles(completed.accountId), []);
    assert.deepEqual(await storedFiles(failed.accountId), []);
    assert.equal((await streamTypes(completed.jobId)).at(-1), 'FileDeleted');
    assert.equal((await streamTypes(failed.jobId)).at(-1), 'FailedJobFilesDeleted');
    assert.equal(await sweeper.sweep(), 0, 'a sweep repeated over the same jobs records nothing again');
  });
});
