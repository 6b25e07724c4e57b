import { section } from '../section.js';
import { integer } from '../variable.js';

export const lookupsSection = section('Lookups and channel listings', {
  metadataCacheTtlSeconds: integer(
    'METADATA_CACHE_TTL_SECONDS',
    600,
    [0, 86_400],
    "submission lookups: how long a video's metadata is reused",
  ),
  extractorConcurrency: integer('EXTRACTOR_CONCURRENCY', 4, [1, 64], 'submission lookups running at once per process'),
  queuePerAccount: integer(
    'LOOKUP_QUEUE_PER_ACCOUNT',
    8,
    [1, 1_000],
    'submission lookups of one account running or waiting; beyond it, `429` with `Retry-After` at once',
  ),
  queueMax: integer(
    'LOOKUP_QUEUE_MAX',
    64,
    [0, 100_000],
    'submission lookups waiting across accounts; beyond it, `429` with `Retry-After` at once',
  ),
  infoJobTtlSeconds: integer(
    'INFO_JOB_TTL_SECONDS',
    3600,
    [1, 30 * 86_400],
    'lifetime of an info job after submission; polling answers 404 afterwards',
  ),
  clientDownloadJobTtlSeconds: integer(
    'CLIENT_DOWNLOAD_JOB_TTL_SECONDS',
    3600,
    [1, 30 * 86_400],
    'the same for a client-download job',
  ),
  channelListingTimeoutSeconds: integer(
    'CHANNEL_LISTING_TIMEOUT_SECONDS',
    300,
    [1, 3600],
    'upper bound of one channel listing; a listing still running then is stopped, its units released, and answered `500`',
  ),
  /** Channel listings under way at once per account, and across accounts, per API process. */
  channelListingsPerAccount: integer(
    'CHANNEL_LISTINGS_PER_ACCOUNT',
    2,
    [1, 1_000],
    'channel listings of one account under way at once per API process; beyond it, `429` with `Retry-After` at once, nothing reserved',
  ),
  channelListingsMax: integer('CHANNEL_LISTINGS_MAX', 4, [1, 1_000], 'the same across all accounts'),
});
