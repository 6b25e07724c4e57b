import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DownloadJobCommandHandler } from '../../application/downloads/download-job-commands.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { EventStreamClient } from '../support/event-stream-client.js';
import { InstantExtractor } from '../support/instant-extractor.js';
import { type TestService, startTestService } from '../support/test-service.js';

async function submitQuietJob(service: TestService, accountId: string): Promise<string> {
  // Written through the job's commands: nothing here depends on a request body arriving within a short timeout.
  const jobId = randomUUID();
  await service.service.container.resolve<DownloadJobCommandHandler>(TOKENS.downloadJobCommands).handle(jobId, {
    type: 'SubmitDownload',
    data: {
      jobId,
      accountId,
      url: 'https://www.youtube.com/watch?v=quiet',
      format: 'audio',
      startTime: null,
      endTime: null,
      language: null,
      webhookUrl: null,
      title: 'Quiet',
      duration: 10,
      maxFileSizeBytes: 1e9,
      now: new Date().toISOString(),
    },
  });
  return jobId;
}

describe('HTTP: event streams and the server’s timeouts and shutdown', function () {
  this.timeout(60_000);
  let service: TestService;

  before(async () => {
    // The request timeouts bound receiving a request; a stream being answered must never be cut by them.
    service = await startTestService({
      roles: ['api', 'projector'],
      label: 'http_event_stream_timeouts',
      overrides: { extractor: new InstantExtractor() },
      env: { HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_HEADERS_TIMEOUT_MS: '500', EVENT_STREAM_HEARTBEAT_MS: '200' },
    });
  });
  after(async () => service?.stop());

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
      overrides: { extractor: new InstantExtractor() },
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
