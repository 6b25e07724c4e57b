import assert from 'node:assert/strict';
import { CommandHandler } from '../../../application/command-handler.js';
import { CancelDownload } from '../../../application/downloads/cancel-download.js';
import type { DownloadJobCommandHandler } from '../../../application/downloads/download-job-commands.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../domain/download-job/decider.js';
import { InvalidTransitionError } from '../../../domain/errors.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../infrastructure/system/system-clock.js';
import { completeJobInProgress, startJobInProgress } from '../../support/job-in-progress.js';

describe('CancelDownload racing the job’s completion', () => {
  it('answers the documented "already COMPLETED" refusal when the job completes between the read and the cancel', async () => {
    const jobs: DownloadJobCommandHandler = new CommandHandler(
      new InMemoryEventStore(),
      downloadJobDecider,
      DOWNLOAD_JOB_CATEGORY,
      new RandomIds(),
    );
    const jobId = 'job-race';
    await startJobInProgress(jobs, jobId);

    // The worker's completion lands right after the cancel has read the job IN_PROGRESS.
    let completedMeanwhile = false;
    const racing = Object.create(jobs) as DownloadJobCommandHandler;
    racing.load = async (id: string) => {
      const loaded = await jobs.load(id);
      if (!completedMeanwhile) {
        completedMeanwhile = true;
        await completeJobInProgress(jobs, id);
      }
      return loaded;
    };
    const announced: string[] = [];
    const cancel = new CancelDownload(
      racing,
      { announce: async (id: string) => void announced.push(id) } as never,
      new SystemClock(),
    );

    await assert.rejects(cancel.execute('acc-1', jobId, 'corr-1'), (error: unknown) => {
      assert.ok(error instanceof InvalidTransitionError);
      assert.equal(error.message, `Download job ${jobId} is already COMPLETED and cannot be cancelled`);
      return true;
    });
    assert.equal(completedMeanwhile, true);
    assert.deepEqual(announced, []);
    assert.equal((await jobs.load(jobId)).state.status, 'COMPLETED');
  });
});
