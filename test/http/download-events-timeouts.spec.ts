import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DownloadJobCommandHandler } from '../../application/downloads/download-job-commands.js';
import { TOKENS } from '../../infrastructure/container.js';
import { EventStreamClient } from '../support/event-stream-client.js';
import { InstantExtractor } from '../support/instant-extractor.js';
import { type TestService, startTestService } from '../support/test-service.js';

describe('HTTP: an event stream outlives the server request timeouts', function () {
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
    // Written through the job's commands: nothing here depends on a request body arriving within the short timeout.
    const jobId = randomUUID();
    await service.service.container.resolve<DownloadJobCommandHandler>(TOKENS.downloadJobCommands).handle(jobId, {
      type: 'SubmitDownload',
      data: { jobId, accountId, url: 'https://www.youtube.com/watch?v=quiet', format: 'audio', startTime: null, endTime: null, language: null, webhookUrl: null, title: 'Quiet', duration: 10, maxFileSizeBytes: 1e9, now: new Date().toISOString() },
    });
    const stream = await EventStreamClient.open(`${service.url}/api/v2/download/${jobId}/events`, { Authorization: `Bearer ${apiKey}` });
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
});
