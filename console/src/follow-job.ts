import { type Api, ApiError } from './api.js';
import { type Job, isTerminal } from './api-types.js';
import { EventStreamParser } from './event-stream-parser.js';
import { wait } from './wait.js';

/**
 * Keeps a job's view current until it ends: over its event stream
 * (GET /download/{jobId}/events, read with fetch so the Bearer header goes
 * along), resumed with Last-Event-ID when the connection drops; by polling
 * GET /download/{jobId} when no stream can be had (the per-key limit's 429,
 * or a tab already holding its share of streams).
 */

const MAX_STREAMS_PER_TAB = 4;
const POLL_INTERVAL_MS = 2_000;
const RECONNECT_DELAY_MS = 1_000;
// After the service refused a stream (its per-key or per-process limit), poll this long before asking again.
const STREAM_REFUSED_BACKOFF_MS = 30_000;
let openStreams = 0;

export async function followJob(
  api: Api,
  jobId: string,
  onJob: (job: Job) => void,
  signal: AbortSignal,
): Promise<void> {
  let lastEventId: string | null = null;
  let streamAllowedAt = 0;
  while (!signal.aborted) {
    const mayStream = openStreams < MAX_STREAMS_PER_TAB && Date.now() >= streamAllowedAt;
    const outcome: StreamOutcome = mayStream
      ? await readStream(api, jobId, lastEventId, onJob, signal)
      : { ended: false, streamed: false, lastEventId };
    if (outcome.ended || signal.aborted) return;
    lastEventId = outcome.lastEventId;
    if (mayStream && !outcome.streamed) streamAllowedAt = Date.now() + STREAM_REFUSED_BACKOFF_MS;
    if (!outcome.streamed) {
      if (await pollOnce(api, jobId, onJob)) return;
      await wait(POLL_INTERVAL_MS, signal);
    } else {
      await wait(RECONNECT_DELAY_MS, signal);
    }
  }
}

interface StreamOutcome {
  /** The job reached its end (or is gone): nothing more to follow. */
  ended: boolean;
  /** The stream was opened, so dropping it is worth a reconnect rather than a poll. */
  streamed: boolean;
  lastEventId: string | null;
}

async function readStream(
  api: Api,
  jobId: string,
  lastEventId: string | null,
  onJob: (job: Job) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  openStreams += 1;
  try {
    const response = await api.openStream(`/download/${encodeURIComponent(jobId)}/events`, lastEventId, signal);
    const isStream =
      response.ok &&
      (response.headers.get('Content-Type') ?? '').startsWith('text/event-stream') &&
      response.body !== null;
    if (!isStream) {
      await response.body?.cancel();
      return { ended: false, streamed: false, lastEventId };
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new EventStreamParser();
    let latestId = lastEventId;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { ended: false, streamed: true, lastEventId: latestId };
      for (const event of parser.push(value)) {
        if (event.id !== null) latestId = event.id;
        if (event.event !== 'job') continue;
        const job = JSON.parse(event.data) as Job;
        onJob(job);
        if (isTerminal(job)) {
          await reader.cancel();
          return { ended: true, streamed: true, lastEventId: latestId };
        }
      }
    }
  } catch (error) {
    if (signal.aborted) return { ended: true, streamed: true, lastEventId };
    // A dropped connection: try again, from the last event seen.
    return { ended: false, streamed: error instanceof TypeError, lastEventId };
  } finally {
    openStreams -= 1;
  }
}

/** True when there is nothing more to follow. */
async function pollOnce(api: Api, jobId: string, onJob: (job: Job) => void): Promise<boolean> {
  try {
    const job = await api.request<Job>('GET', `/download/${encodeURIComponent(jobId)}`);
    onJob(job);
    return isTerminal(job);
  } catch (error) {
    return error instanceof ApiError && (error.status === 404 || error.status === 401);
  }
}
