import { section } from '../../config/section.js';
import { integer } from '../../config/variable.js';

/** Open event streams (GET /download/{jobId}/events) per API key and per API process, and the heartbeat between comments. */
export const eventStreamsSection = section('Event streams', {
  perKey: integer(
    'EVENT_STREAMS_PER_KEY',
    20,
    [1, 100_000],
    'open `GET /download/{jobId}/events` streams per API key; beyond it, `429` at once (see [Watching jobs](#watching-jobs-progress-live-status-and-listings))',
  ),
  max: integer('EVENT_STREAMS_MAX', 2_000, [1, 100_000], 'the same per API process'),
  heartbeatMs: integer(
    'EVENT_STREAM_HEARTBEAT_MS',
    15_000,
    [100, 600_000],
    'the `: ping` comment sent on every open event stream this often, so proxies keep quiet streams open',
  ),
  stallTimeoutMs: integer(
    'EVENT_STREAM_STALL_TIMEOUT_MS',
    30_000,
    [1_000, 600_000],
    'an event stream whose written bytes have waited this long without the client taking any of them is disconnected (its connection destroyed, freeing its place); a client that leaves 64 KiB unread is disconnected at once',
  ),
});
