import { type ConfigSection, integer } from '../variable.js';

export interface LookupSettings {
  metadataCacheTtlSeconds: number;
  extractorConcurrency: number;
  queuePerAccount: number;
  queueMax: number;
  infoJobTtlSeconds: number;
  clientDownloadJobTtlSeconds: number;
  channelListingTimeoutSeconds: number;
  /** Channel listings under way at once per account, and across accounts, per API process. */
  channelListingsPerAccount: number;
  channelListingsMax: number;
}

const METADATA_CACHE_TTL_SECONDS = integer(
  'METADATA_CACHE_TTL_SECONDS',
  600,
  [0, 86_400],
  "submission lookups: how long a video's metadata is reused",
);
const EXTRACTOR_CONCURRENCY = integer(
  'EXTRACTOR_CONCURRENCY',
  4,
  [1, 64],
  'submission lookups running at once per process',
);
const LOOKUP_QUEUE_PER_ACCOUNT = integer(
  'LOOKUP_QUEUE_PER_ACCOUNT',
  8,
  [1, 1_000],
  'submission lookups of one account running or waiting; beyond it, `429` with `Retry-After` at once',
);
const LOOKUP_QUEUE_MAX = integer(
  'LOOKUP_QUEUE_MAX',
  64,
  [0, 100_000],
  'submission lookups waiting across accounts; beyond it, `429` with `Retry-After` at once',
);
const INFO_JOB_TTL_SECONDS = integer(
  'INFO_JOB_TTL_SECONDS',
  3600,
  [1, 30 * 86_400],
  'lifetime of an info job after submission; polling answers 404 afterwards',
);
const CLIENT_DOWNLOAD_JOB_TTL_SECONDS = integer(
  'CLIENT_DOWNLOAD_JOB_TTL_SECONDS',
  3600,
  [1, 30 * 86_400],
  'the same for a client-download job',
);
const CHANNEL_LISTING_TIMEOUT_SECONDS = integer(
  'CHANNEL_LISTING_TIMEOUT_SECONDS',
  300,
  [1, 3600],
  'upper bound of one channel listing; a listing still running then is stopped, its units released, and answered `500`',
);
const CHANNEL_LISTINGS_PER_ACCOUNT = integer(
  'CHANNEL_LISTINGS_PER_ACCOUNT',
  2,
  [1, 1_000],
  'channel listings of one account under way at once per API process; beyond it, `429` with `Retry-After` at once, nothing reserved',
);
const CHANNEL_LISTINGS_MAX = integer('CHANNEL_LISTINGS_MAX', 4, [1, 1_000], 'the same across all accounts');

export const lookupsSection: ConfigSection<LookupSettings> = {
  title: 'Lookups and channel listings',
  variables: [
    METADATA_CACHE_TTL_SECONDS,
    EXTRACTOR_CONCURRENCY,
    LOOKUP_QUEUE_PER_ACCOUNT,
    LOOKUP_QUEUE_MAX,
    INFO_JOB_TTL_SECONDS,
    CLIENT_DOWNLOAD_JOB_TTL_SECONDS,
    CHANNEL_LISTING_TIMEOUT_SECONDS,
    CHANNEL_LISTINGS_PER_ACCOUNT,
    CHANNEL_LISTINGS_MAX,
  ],
  load: (env) => ({
    metadataCacheTtlSeconds: METADATA_CACHE_TTL_SECONDS.read(env),
    extractorConcurrency: EXTRACTOR_CONCURRENCY.read(env),
    queuePerAccount: LOOKUP_QUEUE_PER_ACCOUNT.read(env),
    queueMax: LOOKUP_QUEUE_MAX.read(env),
    infoJobTtlSeconds: INFO_JOB_TTL_SECONDS.read(env),
    clientDownloadJobTtlSeconds: CLIENT_DOWNLOAD_JOB_TTL_SECONDS.read(env),
    channelListingTimeoutSeconds: CHANNEL_LISTING_TIMEOUT_SECONDS.read(env),
    channelListingsPerAccount: CHANNEL_LISTINGS_PER_ACCOUNT.read(env),
    channelListingsMax: CHANNEL_LISTINGS_MAX.read(env),
  }),
};
