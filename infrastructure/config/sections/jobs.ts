import { type ConfigSection, integer } from '../variable.js';

export interface JobSettings {
  workerConcurrency: number;
  downloadMaxAttempts: number;
  downloadRetryBaseMs: number;
  reservationGraceMs: number;
  /** A reservation (and its job) still pending after this long is brought to an end by the reconciler. */
  pendingDownloadLimitMs: number;
  /** The same for info, client-download and channel-listing reservations. */
  pendingLookupLimitMs: number;
  reconcileIntervalMs: number;
}

const WORKER_CONCURRENCY = integer(
  'WORKER_CONCURRENCY',
  2,
  [1, 64],
  'downloads (and info or client-download jobs) at once per worker process',
);
const DOWNLOAD_MAX_ATTEMPTS = integer('DOWNLOAD_MAX_ATTEMPTS', 3, [1, 20], 'attempts per job');
const DOWNLOAD_RETRY_BASE_MS = integer(
  'DOWNLOAD_RETRY_BASE_MS',
  15_000,
  [0, 3_600_000],
  'the first retry delay, doubling at each retry, at most 5 min',
);
const RESERVATION_GRACE_MS = integer(
  'RESERVATION_GRACE_MS',
  120_000,
  [1_000, 86_400_000],
  'after this, a reservation whose job stream was never written is released',
);
const PENDING_DOWNLOAD_LIMIT_MS = integer(
  'PENDING_DOWNLOAD_LIMIT_MS',
  6 * 3_600_000,
  [5_000, 30 * 86_400_000],
  'a download reservation older than this is settled by the reconciler (its job failed first if unfinished)',
  '`21600000` (6 h)',
);
const PENDING_LOOKUP_LIMIT_MS = integer(
  'PENDING_LOOKUP_LIMIT_MS',
  3_600_000,
  [5_000, 30 * 86_400_000],
  "the same for `info` and `client_download` reservations: a pending job fails (`NETWORK_ERROR`) and its unit is released, as is a reservation without a job; a listing's is released sooner, once `RESERVATION_GRACE_MS` plus `CHANNEL_LISTING_TIMEOUT_SECONDS` plus 20 s old (its request is over by then)",
  "`3600000` (1 h, the jobs' lifetime)",
);
const RECONCILE_INTERVAL_MS = integer(
  'RECONCILE_INTERVAL_MS',
  60_000,
  [100, 86_400_000],
  'how often the reconciler looks for such reservations',
);

export const jobsSection: ConfigSection<JobSettings> = {
  title: 'Jobs and reservations',
  variables: [
    WORKER_CONCURRENCY,
    DOWNLOAD_MAX_ATTEMPTS,
    DOWNLOAD_RETRY_BASE_MS,
    RESERVATION_GRACE_MS,
    PENDING_DOWNLOAD_LIMIT_MS,
    PENDING_LOOKUP_LIMIT_MS,
    RECONCILE_INTERVAL_MS,
  ],
  load: (env) => ({
    workerConcurrency: WORKER_CONCURRENCY.read(env),
    downloadMaxAttempts: DOWNLOAD_MAX_ATTEMPTS.read(env),
    downloadRetryBaseMs: DOWNLOAD_RETRY_BASE_MS.read(env),
    reservationGraceMs: RESERVATION_GRACE_MS.read(env),
    pendingDownloadLimitMs: PENDING_DOWNLOAD_LIMIT_MS.read(env),
    pendingLookupLimitMs: PENDING_LOOKUP_LIMIT_MS.read(env),
    reconcileIntervalMs: RECONCILE_INTERVAL_MS.read(env),
  }),
};
