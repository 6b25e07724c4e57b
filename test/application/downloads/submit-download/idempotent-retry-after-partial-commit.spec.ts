import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CommandHandler } from '../../../../application/command-handler.js';
import type { VideoMetadata } from '../../../../application/ports/extractor/video-prober.js';
import type { AppendOptions, EventToAppend } from '../../../../application/ports/event-store.js';
import { SubmitDownload } from '../../../../application/downloads/submit-download.js';
import type { VideoLookup } from '../../../../application/downloads/video-lookup.js';
import { ReleaseOrphanedReservation } from '../../../../application/processes/release-orphaned-reservation.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../../domain/account/decider.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../../domain/download-job/decider.js';
import { JobAbandonedError } from '../../../../domain/errors.js';
import { InMemoryEventStore } from '../../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { RandomIds } from '../../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../../infrastructure/system/system-clock.js';
import { givenAccount } from '../../../support/givens/given-account.js';

/** An event store whose next append to a job stream fails, as a connection lost between the reservation and the job would. */
class FailingJobAppendStore extends InMemoryEventStore {
  failNextJobAppend = false;

  override async appendToStream(streamName: string, events: readonly EventToAppend[], options: AppendOptions) {
    if (this.failNextJobAppend && streamName.startsWith(`${DOWNLOAD_JOB_CATEGORY}-`)) {
      this.failNextJobAppend = false;
      throw new Error('connection lost');
    }
    return super.appendToStream(streamName, events, options);
  }
}

describe('an Idempotency-Key retry after the first submission reserved but never wrote its job', () => {
  const ids = new RandomIds();
  const clock = new SystemClock();
  const video: VideoMetadata = { id: 'abc', title: 'A clip', duration: 30, liveStatus: null, tags: [] };
  const videos = { lookup: async () => video } as unknown as VideoLookup;

  async function setUp() {
    const store = new FailingJobAppendStore();
    const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids);
    const jobs = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, ids);
    const now = new Date().toISOString();
    const accountId = await givenAccount(store, { now });
    const submit = new SubmitDownload(accounts, jobs, videos, ids, clock);
    const input = {
      accountId,
      url: 'https://youtu.be/abc',
      videoUrl: 'https://www.youtube.com/watch?v=abc',
      format: 'audio' as const,
      idempotencyKey: randomUUID(),
    };
    store.failNextJobAppend = true;
    await assert.rejects(submit.execute(input), /connection lost/);
    const pending = async () => (await accounts.load(accountId)).state.pendingJobs;
    assert.equal((await pending()).length, 1, 'the reservation was committed');
    return { store, accounts, jobs, submit, input, pending, accountId };
  }

  it('writes the job itself, with the remembered id, so the answer names a job that exists', async () => {
    const { jobs, submit, input, pending } = await setUp();
    const [reservedJobId] = await pending();
    const answer = await submit.execute(input);
    assert.equal(answer.jobId, reservedJobId);
    const { state } = await jobs.load(answer.jobId);
    assert.equal(state.status, 'IN_QUEUE', 'the job the answer names exists');
    assert.deepEqual(await pending(), [reservedJobId], 'still one reservation');
    assert.deepEqual(await submit.execute(input), answer, 'a further repeat gets the same answer');
  });

  it('answers JobAbandonedError, never a queued job, once the orphan releaser abandoned the job, and admits anew after the release', async () => {
    const { accounts, jobs, submit, input, pending, accountId } = await setUp();
    const [reservedJobId] = await pending();
    const releaser = new ReleaseOrphanedReservation(jobs, accounts, clock, 0);
    // The releaser abandons the job stream but has not released the reservation yet.
    await jobs.handle(reservedJobId, {
      type: 'AbandonJob',
      data: { jobId: reservedJobId, accountId, now: new Date().toISOString() },
    });
    await assert.rejects(submit.execute(input), JobAbandonedError);
    await releaser.handle({ jobId: reservedJobId, accountId, occurredAt: new Date(0).toISOString() });
    assert.deepEqual(await pending(), []);
    const fresh = await submit.execute(input);
    assert.notEqual(fresh.jobId, reservedJobId, 'the forgotten key admits a new job');
    assert.equal((await jobs.load(fresh.jobId)).state.status, 'IN_QUEUE');
  });
});
