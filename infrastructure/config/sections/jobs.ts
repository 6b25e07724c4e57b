import { section } from '../section.js';
import { machineConcurrency } from '../../system/machine-concurrency.js';
import { wholeNumber } from '../parsers.js';
import { integer, variable } from '../variable.js';

export const jobsSection = section('Jobs and reservations', {
  workerConcurrency: variable({
    name: 'WORKER_CONCURRENCY',
    doc: 'downloads (and info or client-download jobs) at once per worker process',
    shownDefault: '2 per CPU core, at most 1 per 512 MB of memory (the container limit when there is one), at least 2',
    fallback: machineConcurrency,
    parse: wholeNumber(1, 64),
  }),
  downloadMaxAttempts: integer('DOWNLOAD_MAX_ATTEMPTS', 3, [1, 20], 'attempts per job'),
  downloadRetryBaseMs: integer(
    'DOWNLOAD_RETRY_BASE_MS',
    15_000,
    [0, 3_600_000],
    'the first retry delay, doubling at each retry, at most 5 min',
  ),
  reservationGraceMs: integer(
    'RESERVATION_GRACE_MS',
    120_000,
    [1_000, 86_400_000],
    'after this, a reservation whose job stream was never written is released',
  ),
  /** A reservation (and its job) still pending after this long is brought to an end by the reconciler. */
  pendingDownloadLimitMs: integer(
    'PENDING_DOWNLOAD_LIMIT_MS',
    6 * 3_600_000,
    [5_000, 30 * 86_400_000],
    'a download reservation older than this is settled by the reconciler (its job failed first if unfinished)',
    '`21600000` (6 h)',
  ),
  /** The same for info, client-download and channel-listing reservations. */
  pendingLookupLimitMs: integer(
    'PENDING_LOOKUP_LIMIT_MS',
    3_600_000,
    [5_000, 30 * 86_400_000],
    "the same for `info` and `client_download` reservations: a pending job fails (`NETWORK_ERROR`) and its unit is released, as is a reservation without a job; a listing's is released sooner, once `RESERVATION_GRACE_MS` plus `CHANNEL_LISTING_TIMEOUT_SECONDS` plus 20 s old (its request is over by then)",
    "`3600000` (1 h, the jobs' lifetime)",
  ),
  reconcileIntervalMs: integer(
    'RECONCILE_INTERVAL_MS',
    60_000,
    [100, 86_400_000],
    'how often the reconciler looks for such reservations',
  ),
});
