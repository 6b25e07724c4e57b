import { randomUUID } from 'node:crypto';
import { CommandHandler } from '../../../application/command-handler.js';
import type { EventStore } from '../../../application/ports/event-store.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../domain/download-job/decider.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';

export interface GivenDownloadOptions {
  accountId: string;
  jobId?: string;
  /** When the download was reserved and submitted; now by default. */
  now?: string;
}

/** A download the account has reserved (it counts as pending) whose job was never written: a submission cut short. */
export async function givenReservedDownload(store: EventStore, options: GivenDownloadOptions): Promise<string> {
  const jobId = options.jobId ?? randomUUID();
  const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, new RandomIds());
  await accounts.handle(options.accountId, {
    type: 'ReserveDownload',
    data: { jobId, pendingLimit: 100, now: options.now ?? new Date().toISOString() },
  });
  return jobId;
}

/** A download reserved and submitted, waiting in the queue: an audio download of a 10 s video titled T. */
export async function givenQueuedDownload(store: EventStore, options: GivenDownloadOptions): Promise<string> {
  const jobId = await givenReservedDownload(store, options);
  return givenDownloadJob(store, { ...options, jobId });
}

/** The job of a reservation written, as a submission writes it once the account admitted it. */
export async function givenDownloadJob(
  store: EventStore,
  options: GivenDownloadOptions & { jobId: string },
): Promise<string> {
  const { jobId } = options;
  const jobs = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, new RandomIds());
  await jobs.handle(jobId, {
    type: 'SubmitDownload',
    data: {
      jobId,
      accountId: options.accountId,
      url: 'https://youtu.be/abc',
      format: 'audio',
      startTime: null,
      endTime: null,
      language: null,
      webhookUrl: null,
      title: 'T',
      duration: 10,
      maxFileSizeBytes: 1e9,
      now: options.now ?? new Date().toISOString(),
    },
  });
  return jobId;
}
