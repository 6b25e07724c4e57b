import { randomUUID } from 'node:crypto';
import { CommandHandler } from '../../../application/command-handler.js';
import type { EventStore } from '../../../application/ports/event-store.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import type { LookupFeature } from '../../../domain/account/lookups.js';
import {
  CLIENT_DOWNLOAD_JOB_CATEGORY,
  clientDownloadJobDecider,
} from '../../../domain/lookup-job/client-download-job.js';
import { INFO_JOB_CATEGORY, infoJobDecider } from '../../../domain/lookup-job/info-job.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';

export interface GivenLookupOptions {
  accountId: string;
  jobId?: string;
  /** When it was reserved and requested; now by default. */
  now?: string;
  /** Until when the job is kept for polling; an hour after `now` by default. */
  expiresAt?: string;
}

/** A lookup unit of `feature` the account holds for `jobId`, as a submission reserves it before writing its job. */
export async function givenReservedLookup(
  store: EventStore,
  feature: LookupFeature,
  options: GivenLookupOptions,
): Promise<string> {
  const jobId = options.jobId ?? randomUUID();
  const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, new RandomIds());
  await accounts.handle(options.accountId, {
    type: 'ReserveLookup',
    data: { lookupId: jobId, feature, units: 1, subject: 'u', now: options.now ?? new Date().toISOString() },
  });
  return jobId;
}

/** An info job reserved and requested, waiting for a worker: the video at https://www.youtube.com/watch?v=v. */
export async function givenPendingInfoJob(store: EventStore, options: GivenLookupOptions): Promise<string> {
  const jobId = await givenReservedLookup(store, 'info', options);
  const jobs = new CommandHandler(store, infoJobDecider, INFO_JOB_CATEGORY, new RandomIds());
  await jobs.handle(jobId, {
    type: 'RequestInfo',
    data: {
      jobId,
      accountId: options.accountId,
      url: 'https://www.youtube.com/watch?v=v',
      includeAudioTracks: false,
      ...times(options),
    },
  });
  return jobId;
}

/** A client-download job reserved and requested, waiting for a worker: the reel at https://www.instagram.com/reel/C0abc/. */
export async function givenPendingClientDownloadJob(store: EventStore, options: GivenLookupOptions): Promise<string> {
  const jobId = await givenReservedLookup(store, 'client_download', options);
  const jobs = new CommandHandler(store, clientDownloadJobDecider, CLIENT_DOWNLOAD_JOB_CATEGORY, new RandomIds());
  await jobs.handle(jobId, {
    type: 'RequestClientDownload',
    data: {
      jobId,
      accountId: options.accountId,
      url: 'https://www.instagram.com/reel/C0abc/',
      platform: 'photo-sharing',
      ...times(options),
    },
  });
  return jobId;
}

function times(options: GivenLookupOptions): { now: string; expiresAt: string } {
  const now = options.now ?? new Date().toISOString();
  return { now, expiresAt: options.expiresAt ?? new Date(Date.parse(now) + 3_600_000).toISOString() };
}
