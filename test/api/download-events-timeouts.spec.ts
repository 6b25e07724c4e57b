import assert from 'node:assert/strict';
import { EventStreamClient } from '../support/event-stream-client.js';
import { ScriptedExtractor, answerAtOnce } from '../support/scripted-extractor.js';
import { submitQuietJob } from '../support/quiet-job.js';
import { type UnreadResponse, stopReading } from '../support/raw-http.js';
import { type TestService, startTestService } from '../support/test-service.js';

async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A body far larger than the kernel's buffers on both ends of a loopback connection. */
const HUGE_TITLE = 'x'.repeat(8 * 1024 * 1024);

describe('HTTP: event streams and the server’s timeouts and shutdown', function () {
  this.timeout(60_000);
  let service: TestService;

  before(async () => {
    // The request timeouts bound receiving a request; a stream being answered must never be cut by them.
    service = await startTestService({
      roles: ['api', 'projector'],
      label: 'http_event_stream_timeouts',
      overrides: { extractor: new ScriptedExtractor({ probe: answerAtOnce() }) },
      env: {
        HTTP_REQUEST_TIMEOUT_MS: '1000',
        HTTP_HEADERS_TIMEOUT_MS: '500',
        EVENT_STREAM_HEARTBEAT_MS: '200',
        EVENT_STREAM_STALL_TIMEOUT_MS: '1000',
        EVENT_STREAMS_PER_KEY: '1',
      },
    });
  });
  after(async () => service?.stop());

  /** Whether the key's one stream place is free now (a stream it opens is closed again). */
  const placeFree = async (target: TestService, jobId: string, apiKey: string): Promise<boolean> => {
    const probe = await EventStreamClient.open(`${target.api}/download/${jobId}/events`, {
      Authorization: `Bearer ${apiKey}`,
    });
    probe.close();
    assert.ok([200, 429].includes(probe.response.status), String(probe.response.status));
    return probe.response.status === 200;
  };

  /**
   * The server has let go of a client that stopped reading: its place is free, and the connection was destroyed
   * with what the process still held for it, rather than kept until the client takes all of it.
   */
  const letGo = async (target: TestService, jobId: string, apiKey: string, stuck: UnreadResponse) => {
    await eventually(async () => placeFree(target, jobId, apiKey), 'the stream’s place to be freed');
    // Reading again drains what the kernels hold; a connection the server kept would now deliver the whole body.
    stuck.resume();
    await eventually(() => stuck.closed, 'the connection to close', 15_000);
    assert.ok(stuck.received.length < HUGE_TITLE.length, `${stuck.received.length} bytes arrived: the body was kept`);
    assert.ok(!stuck.received.endsWith('\r\n0\r\n\r\n'), 'the response was not ended as if read');
  };

  it('destroys the connection of a client that stops reading once its writes stall for EVENT_STREAM_STALL_TIMEOUT_MS', async () => {
    const { accountId, apiKey } = await service.createAccount();
    const jobId = await submitQuietJob(service, accountId, HUGE_TITLE);
    const stuck = await stopReading(service.url, `/api/v2/download/${jobId}/events`, {
      Authorization: `Bearer ${apiKey}`,
    });
    try {
      await eventually(async () => !(await placeFree(service, jobId, apiKey)), 'the stream to take the key’s place');
      await letGo(service, jobId, apiKey, stuck);
    } finally {
      stuck.destroy();
    }
  });

  it('destroys the connection of a client that leaves 64 KiB unread when the next event comes', async () => {
    // Stalls alone would take ten minutes here: only the unread bytes can end this stream in time.
    const patient = await startTestService({
      roles: ['api', 'projector'],
      label: 'http_event_stream_unread',
      overrides: { extractor: new ScriptedExtractor({ probe: answerAtOnce() }) },
      env: { EVENT_STREAM_STALL_TIMEOUT_MS: '600000', EVENT_STREAMS_PER_KEY: '1' },
    });
    const { accountId, apiKey } = await patient.createAccount();
    const jobId = await submitQuietJob(patient, accountId, HUGE_TITLE);
    const stuck = await stopReading(
      patient.url,
      `/api/v2/download/${jobId}/events`,
      { Authorization: `Bearer ${apiKey}` },
      'event: job',
    );
    try {
      const cancelled = await fetch(`${patient.api}/download/${jobId}`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${apiKey}` },
      });
      assert.equal(cancelled.status, 200);
      await letGo(patient, jobId, apiKey, stuck);
    } finally {
      stuck.destroy();
      await patient.stop();
    }
  });

  it('keeps a quiet stream open, with heartbeats, well past HTTP_REQUEST_TIMEOUT_MS', async () => {
    const { accountId, apiKey } = await service.createAccount();
    const jobId = await submitQuietJob(service, accountId);
    const stream = await EventStreamClient.open(`${service.url}/api/v2/download/${jobId}/events`, {
      Authorization: `Bearer ${apiKey}`,
    });
    try {
      assert.equal(stream.response.status, 200);
      await stream.waitFor('the first event', () => stream.events[0]);
      const openedAt = Date.now();
      await stream.waitFor('three request timeouts to pass', () => (Date.now() - openedAt > 3_000 ? true : undefined));
      const pings = stream.comments.length;
      await stream.waitFor('one more ping', () => (stream.comments.length > pings ? true : undefined));
      assert.equal(stream.ended, false);
    } finally {
      stream.close();
    }
  });

  it('ends open streams at shutdown instead of waiting out SHUTDOWN_TIMEOUT_MS', async () => {
    const stopping = await startTestService({
      roles: ['api', 'projector'],
      label: 'http_event_stream_shutdown',
      overrides: { extractor: new ScriptedExtractor({ probe: answerAtOnce() }) },
      env: { SHUTDOWN_TIMEOUT_MS: '300000' },
    });
    let stream: EventStreamClient | undefined;
    try {
      const { accountId, apiKey } = await stopping.createAccount();
      const jobId = await submitQuietJob(stopping, accountId);
      stream = await EventStreamClient.open(`${stopping.url}/api/v2/download/${jobId}/events`, {
        Authorization: `Bearer ${apiKey}`,
      });
      const opened = stream;
      await opened.waitFor('the first event', () => opened.events[0]);
      const stopped = stopping.stop();
      await opened.waitFor('the server to end the stream', () => (opened.ended ? true : undefined), 30_000);
      await stopped;
    } finally {
      stream?.close();
      await stopping.stop();
    }
  });
});
