import assert from 'node:assert/strict';
import { access, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandHandler } from '../../../../application/command-handler.js';
import type { Logger } from '../../../../application/ports/logger.js';
import { RunDownload } from '../../../../application/processes/run-download.js';

import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../../domain/download-job/decider.js';
import { InMemoryEventStore } from '../../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { LocalDirectoryFileStore } from '../../../../infrastructure/files/local-directory-file-store.js';
import { TemporaryWorkDirs } from '../../../../infrastructure/files/temporary-work-dirs.js';
import { RandomIds } from '../../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../../infrastructure/system/system-clock.js';
import { ScriptedExtractor, writeDownloadedAudio } from '../../../support/scripted-extractor.js';
import { givenAccount } from '../../../support/givens/given-account.js';
import { givenQueuedDownload } from '../../../support/givens/given-download.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

/** The first download waits until opened; each writes a file whose size tells the calls apart. */
function gatedExtractor() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let started!: () => void;
  const firstStarted = new Promise<void>((resolve) => (started = resolve));
  const extractor = new ScriptedExtractor({
    download: async (request) => {
      const calls = extractor.downloads.length;
      if (calls === 1) {
        started();
        await opened;
      }
      return writeDownloadedAudio(request, Buffer.alloc(1000 * calls));
    },
  });
  return { extractor, firstStarted, open };
}

describe('one worker per job at a time (the job lease)', () => {
  it('drops a duplicate delivery, lets a redelivery take over, and keeps the worker it was taken from from completing or overwriting the file', async () => {
    const store = new InMemoryEventStore();
    const ids = new RandomIds();
    const clock = new SystemClock();
    const now = () => new Date().toISOString();
    const jobs = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, ids);
    const root = await mkdtemp(path.join(tmpdir(), 'lease-'));
    const files = new LocalDirectoryFileStore(path.join(root, 'files'));
    const { extractor, firstStarted, open } = gatedExtractor();
    const run = new RunDownload({
      jobs,
      extractor,
      files,
      workDirs: new TemporaryWorkDirs(path.join(root, 'work')),
      clock,
      logger: silent,
      options: { maxAttempts: 3, retryBaseDelayMs: 1000, retryMaxDelayMs: 60_000 },
    });
    const accountId = await givenAccount(store);
    const jobId = await givenQueuedDownload(store, { accountId });
    const message = { jobId, accountId, occurredAt: now() };

    // A worker whose connection dropped keeps running the first delivery.
    const stale = run.handle(message, { attempt: 1, leaseId: '7:1', messageId: '7', heartbeat() {} });
    await firstStarted;
    // The relay republished the work after its duplicate window: a second message, first delivery.
    assert.deepEqual(await run.handle(message, { attempt: 1, leaseId: '9:1', messageId: '9', heartbeat() {} }), {
      kind: 'done',
    });
    assert.equal(extractor.downloads.length, 1, 'the duplicate did not download');
    // The queue gave up on the first delivery and redelivered it to another worker, reporting the same delivery count
    // (as NATS may): the message, not the count, makes it a takeover.
    assert.deepEqual(await run.handle(message, { attempt: 1, leaseId: '7:1:b', messageId: '7', heartbeat() {} }), {
      kind: 'done',
    });
    assert.equal(extractor.downloads.length, 2);
    const completed = (await jobs.load(jobId)).state;
    assert.equal(completed.status, 'COMPLETED');
    assert.equal(completed.status === 'COMPLETED' && completed.result?.fileSize, 2000);

    open();
    assert.deepEqual(await stale, { kind: 'done' });
    const after = (await jobs.load(jobId)).state;
    assert.deepEqual(after, completed, 'the stale worker changed nothing');
    const fileKey = after.status === 'COMPLETED' ? (after.result?.fileKey ?? '') : '';
    assert.equal((await files.stat(fileKey))?.size, 2000, 'the recorded file is the one recorded, not overwritten');
    await assert.rejects(
      access(path.join(root, 'files', accountId, `${jobId}.1.m4a`)),
      'the stale attempt removed its own file',
    );
    const types = (await store.readStream(`download-${jobId}`)).map((event) => event.type);
    assert.deepEqual(types, ['DownloadRequested', 'DownloadStarted', 'DownloadStarted', 'DownloadCompleted']);
  });
});
