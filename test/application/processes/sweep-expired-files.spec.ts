import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import type { Clock } from '../../../application/ports/clock.js';
import type { ExpiredFile, ExpiredFiles } from '../../../application/ports/expired-files.js';
import type { FileStore, StoredFileInfo } from '../../../application/ports/file-store.js';
import type { Logger } from '../../../application/ports/logger.js';
import {
  type FileRetentionCommandHandler,
  SweepExpiredFiles,
} from '../../../application/processes/sweep-expired-files.js';

class AdjustableClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** Expired jobs in order; a job leaves the list once its deletion is recorded. */
class ListedExpiredFiles implements ExpiredFiles {
  constructor(
    readonly jobs: ExpiredFile[],
    private readonly recorded: Set<string>,
  ) {}
  async endedBefore(_moment: Date, limit: number, skip: readonly string[] = []): Promise<ExpiredFile[]> {
    return this.jobs.filter((job) => !this.recorded.has(job.jobId) && !skip.includes(job.jobId)).slice(0, limit);
  }
}

/** Removes files, except under the prefixes it is told to refuse (an object lock, EPERM). */
class RefusingFileStore implements FileStore {
  readonly refused = new Set<string>();
  readonly attempts: string[] = [];
  async removeByPrefix(prefix: string): Promise<string[]> {
    this.attempts.push(prefix);
    if ([...this.refused].some((jobId) => prefix.includes(jobId)))
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    return [`${prefix}.1.mp4`];
  }
  async put(): Promise<StoredFileInfo> {
    throw new Error('not used');
  }
  async stat(): Promise<null> {
    return null;
  }
  read(): Readable {
    throw new Error('not used');
  }
  async remove(): Promise<void> {}
}

describe('the retention sweeper when one job cannot be deleted', () => {
  const warnings: Array<Record<string, unknown>> = [];
  const logger: Logger = {
    info() {},
    warn: (fields: Record<string, unknown>) => warnings.push(fields),
    error() {},
    child: () => logger,
  } as unknown as Logger;
  let clock: AdjustableClock;
  let recorded: Set<string>;
  let files: RefusingFileStore;
  let sweeper: SweepExpiredFiles;
  const jobs = ['job-bad', 'job-b', 'job-c', 'job-d', 'job-e'].map((jobId) => ({ jobId, accountId: 'account-1' }));

  beforeEach(() => {
    warnings.length = 0;
    clock = new AdjustableClock();
    recorded = new Set();
    files = new RefusingFileStore();
    files.refused.add('job-bad');
    const retention = {
      async handle(jobId: string) {
        recorded.add(jobId);
        return { events: [{ type: 'FileDeleted' }] };
      },
    } as unknown as FileRetentionCommandHandler;
    sweeper = new SweepExpiredFiles({
      expired: new ListedExpiredFiles(jobs, recorded),
      files,
      retention,
      clock,
      logger,
      options: {
        retentionSeconds: 0,
        batchSize: 2,
        failureBackoffMs: { baseMs: 60_000, maxMs: 600_000 },
      },
    });
  });

  const attemptsOn = (jobId: string) => files.attempts.filter((prefix) => prefix.includes(jobId)).length;

  it('logs the job that fails, deletes the files of every other job in the same pass, and leaves the failing one alone for a while', async () => {
    assert.equal(await sweeper.sweep(), 4);
    assert.deepEqual([...recorded].sort(), ['job-b', 'job-c', 'job-d', 'job-e']);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].jobId, 'job-bad');

    assert.equal(await sweeper.sweep(), 0);
    assert.equal(attemptsOn('job-bad'), 1, 'a pass during the back-off does not try the failing job again');
  });

  it('tries the failing job again after its back-off, longer after each failure, and deletes it once it can', async () => {
    await sweeper.sweep();
    clock.advance(61_000);
    assert.equal(await sweeper.sweep(), 0);
    assert.equal(attemptsOn('job-bad'), 2);
    clock.advance(61_000);
    await sweeper.sweep();
    assert.equal(attemptsOn('job-bad'), 2, 'the second failure doubled the wait');
    clock.advance(61_000);
    files.refused.clear();
    assert.equal(await sweeper.sweep(), 1);
    assert.ok(recorded.has('job-bad'));
  });

  it('ends a pass in which every job of a batch failed (the store itself is down), without an error', async () => {
    for (const { jobId } of jobs) files.refused.add(jobId);
    assert.equal(await sweeper.sweep(), 0);
    assert.equal(files.attempts.length, 2);
  });
});
