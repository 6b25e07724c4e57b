import { AdmitBatchVideos } from '../../../application/batches/admit-batch-videos.js';
import { BATCH_PROCESS_FILTER, BatchProcess } from '../../../application/batches/batch-process.js';
import { ListBatchSource } from '../../../application/batches/list-batch-source.js';
import { SubmitBatch } from '../../../application/batches/submit-batch.js';
import { CommandHandler } from '../../../application/command-handler.js';
import { SubmitDownload } from '../../../application/downloads/submit-download.js';
import type { ChannelListing } from '../../../application/ports/extractor/channel-lister.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import { BATCH_CATEGORY, batchDecider } from '../../../domain/batch/decider.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../domain/download-job/decider.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { InMemoryBatchJobIndex } from '../../../infrastructure/features/batches/in-memory-batch-job-index.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../infrastructure/system/system-clock.js';
import { drainer, openStarterAccount, scriptedLookups } from '../../support/in-memory-use-cases.js';
import { ScriptedExtractor } from '../../support/scripted-extractor.js';

export const videoUrl = (n: number) => `https://www.youtube.com/watch?v=video${String(n).padStart(5, '0')}`;

function listingOf(count: number): ChannelListing {
  return {
    id: 'PL1',
    title: 'A playlist',
    channel: 'c',
    channel_id: 'c',
    channel_url: 'https://www.youtube.com/@c',
    entries: Array.from({ length: count }, (_, index) => ({
      id: `video${index}`,
      title: `Video ${index}`,
      url: videoUrl(index),
      uploader: 'c',
    })),
  };
}

/**
 * The batch use cases and their process over an in-memory store, with a
 * scripted platform; `drain` hands the process every event recorded since
 * it last read, until it records no more, as the service's processor does.
 */
export async function batchHarness(options: Parameters<typeof openStarterAccount>[2] = {}) {
  const store = new InMemoryEventStore();
  const ids = new RandomIds();
  const clock = new SystemClock();
  const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids);
  const jobs = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, ids);
  const batches = new CommandHandler(store, batchDecider, BATCH_CATEGORY, ids);
  const accountId = await openStarterAccount(accounts, clock, options);
  const extractor = new ScriptedExtractor({
    probe: async (url) => ({
      id: url.slice(-10),
      title: `Title of ${url.slice(-10)}`,
      duration: 30,
      liveStatus: null,
      tags: [],
    }),
    listChannel: async () => listingOf(12),
  });
  const { lookup, listChannel } = scriptedLookups(extractor, { accounts, ids, clock });
  const index = new InMemoryBatchJobIndex();
  const process = new BatchProcess({
    batches,
    jobs,
    index,
    clock,
    listing: new ListBatchSource({ batches, listChannel, clock, canonicalVideoUrl: (url) => url }),
    admission: new AdmitBatchVideos({
      batches,
      accounts,
      jobs,
      index,
      ids,
      clock,
      submitDownload: (jobId) => new SubmitDownload(accounts, jobs, lookup, { next: () => jobId }, clock),
    }),
  });
  const submitBatch = new SubmitBatch(accounts, batches, ids, clock);
  const drain = drainer(store, BATCH_PROCESS_FILTER, (event) => process.react(event));
  const now = () => clock.now().toISOString();
  /** Ends a job as a worker and billing would: completed and charged, or failed and released. */
  const endJob = async (jobId: string, outcome: 'completed' | 'failed') => {
    if (outcome === 'failed') {
      await jobs.handle(jobId, { type: 'FailJob', data: { jobId, errorCode: null, reason: 'broken', now: now() } });
      await accounts.handle(accountId, { type: 'ReleaseDownload', data: { jobId, now: now() } });
      return;
    }
    await jobs.handle(jobId, { type: 'StartJob', data: { jobId, leaseId: 'l', messageId: 'm', now: now() } });
    await jobs.handle(jobId, {
      type: 'CompleteJob',
      data: {
        jobId,
        fileKey: jobId,
        fileSize: 1000,
        actualFormat: '720',
        mimeType: 'video/mp4',
        fileExtension: 'mp4',
        now: now(),
        leaseId: 'l',
      },
    });
    await accounts.handle(accountId, { type: 'ChargeBandwidth', data: { jobId, fileSizeBytes: 1000, now: now() } });
  };
  const batchEvents = async (batchId: string) =>
    (await store.readStream(`batch-${batchId}`)).map((event) => event.type);
  return { store, accounts, jobs, batches, accountId, extractor, submitBatch, drain, endJob, batchEvents };
}
