import { section } from '../section.js';
import { integer, text } from '../variable.js';

export const queueSection = section('Work queue', {
  natsUrl: text(
    'NATS_URL',
    'nats://127.0.0.1:4222',
    "the JetStream work queue, one URL or a comma-separated list of a cluster's servers; setting it selects server mode",
    'unset (embedded mode); in server mode `nats://127.0.0.1:4222`',
  ),
  natsStreamName: text('NATS_STREAM', 'VDS_WORK', "the work queue's stream (its subjects are `$NATS_STREAM.<kind>`)"),
  natsStreamReplicas: integer(
    'NATS_STREAM_REPLICAS',
    1,
    [1, 5],
    "how many servers of a NATS cluster keep the work queue's stream (and its consumers); 3 on a 3-node cluster survives the loss of one node. An existing stream is brought to this count at start-up",
  ),
  workAckWaitMs: integer(
    'WORK_ACK_WAIT_MS',
    60_000,
    [1_000, 3_600_000],
    'a message whose worker reports no progress this long is redelivered (that worker stops); keep it above the longest silent step, such as ffmpeg post-processing a large file; at least `WEBHOOK_TIMEOUT_MS` + 2000, as a webhook attempt sends no heartbeat',
  ),
  workDrainTimeoutMs: integer(
    'WORK_DRAIN_TIMEOUT_MS',
    30_000,
    [0, 3_600_000],
    "a stopping worker lets the work under way finish this long, then hands the rest back to the queue for another worker, spending no attempt; keep the platform's stop grace period above it",
  ),
});
