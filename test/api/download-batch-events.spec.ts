import assert from 'node:assert/strict';
import { assertMatchesOpenApi } from '../support/response-validator.js';
import { apiClient } from '../support/api-client.js';
import { ControlledExtractor } from '../support/controlled-extractor.js';
import { EventStreamClient } from '../support/event-stream-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

describe('HTTP: GET /download-batch/{batchId}/events', function () {
  this.timeout(120_000);
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let extractor: ControlledExtractor;
  const streams: EventStreamClient[] = [];

  before(async () => {
    extractor = new ControlledExtractor();
    service = await startTestService({
      label: 'http_batch_events',
      overrides: { extractor },
      env: { EVENT_STREAMS_PER_KEY: '2', EVENT_STREAM_HEARTBEAT_MS: '300' },
    });
    call = apiClient(service.url);
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });
  after(async () => service?.stop());

  const open = async (path: string, key: string) => {
    const stream = await EventStreamClient.open(`${service.url}${path}`, { Authorization: `Bearer ${key}` });
    streams.push(stream);
    return stream;
  };
  const submit = async (key: string, videoIds: string[]): Promise<string> => {
    const urls = videoIds.map((id) => `https://www.youtube.com/watch?v=${id}`);
    const response = await call('POST', '/api/v2/download-batch', { key, json: { urls, format: 'audio' } });
    assert.equal(response.status, 202, JSON.stringify(response.body));
    return response.body.batchId as string;
  };

  it('sends the body of a running batch, each change, then the finished body as GET answers it, and closes', async () => {
    const { apiKey } = await service.createAccount({ planId: 'growth' });
    const videoIds = ['batchLive1', 'batchLive2'];
    const batchId = await submit(apiKey, videoIds);
    const stream = await open(`/api/v2/download-batch/${batchId}/events?limit=1`, apiKey);
    assert.equal(stream.response.status, 200);
    assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
    await stream.waitFor('the running batch', () => stream.bodies().find((body) => body.status === 'running'));

    for (const videoId of videoIds) extractor.release(videoId);
    const done = await stream.waitFor('the finished body', () =>
      stream.bodies().find((body) => body.status === 'completed'),
    );
    await stream.waitFor('the server to close the stream', () => (stream.ended ? true : undefined));
    assert.equal(stream.bodies().at(-1).status, 'completed');
    assert.deepEqual(done.counts, { waiting: 0, admitted: 0, completed: 2, failed: 0, cancelled: 0, refused: 0 });
    assert.equal(done.jobs.length, 1, 'the page asked for');
    await service.settle();
    const poll = await call('GET', `/api/v2/download-batch/${batchId}?limit=1`, { key: apiKey });
    assert.deepEqual(done, poll.body);
    const ids = stream.events.map((event) => Number(event.id));
    assert.ok(
      ids.every((id, index) => index === 0 || id > ids[index - 1]),
      `ids grow: ${ids.join(',')}`,
    );
    assert.ok(stream.events.every((event) => event.event === 'batch'));
    for (const body of stream.bodies())
      assertMatchesOpenApi('GET', `/api/v2/download-batch/${batchId}`, 200, body, {
        'content-type': 'application/json',
      });

    // Reconnecting with the last id has nothing newer: the finished batch's stream closes without a body.
    const again = await EventStreamClient.open(`${service.url}/api/v2/download-batch/${batchId}/events`, {
      Authorization: `Bearer ${apiKey}`,
      'Last-Event-ID': String(ids.at(-1)),
    });
    streams.push(again);
    await again.waitFor('the server to close the stream', () => (again.ended ? true : undefined));
    assert.equal(again.events.length, 0);
  });

  it('answers 404 for another account’s batch and an unknown one, 401 without a key, and counts with job streams', async () => {
    const { apiKey } = await service.createAccount({ planId: 'growth' });
    const other = await service.createAccount({ planId: 'growth' });
    const batchId = await submit(apiKey, ['batchLimit1']);
    const foreign = await open(`/api/v2/download-batch/${batchId}/events`, other.apiKey);
    assert.equal(foreign.response.status, 404);
    assert.equal(((await foreign.response.json()) as { error: string }).error, `Batch ${batchId} not found`);
    assert.equal((await open('/api/v2/download-batch/0123-unknown/events', apiKey)).response.status, 404);
    assert.equal((await call('GET', `/api/v2/download-batch/${batchId}/events`)).status, 401);
    const bad = await open(`/api/v2/download-batch/${batchId}/events?cursor=bm9wZQ`, apiKey);
    assert.equal(bad.response.status, 400);

    const job = await call('POST', '/api/v2/download', {
      key: apiKey,
      json: { url: 'https://www.youtube.com/watch?v=batchLimit2', format: 'audio' },
    });
    assert.equal((await open(`/api/v2/download/${job.body.jobId}/events`, apiKey)).response.status, 200);
    assert.equal((await open(`/api/v2/download-batch/${batchId}/events`, apiKey)).response.status, 200);
    const third = await open(`/api/v2/download-batch/${batchId}/events`, apiKey);
    assert.equal(third.response.status, 429, 'two streams per key, job and batch streams together');
    extractor.release('batchLimit1');
    extractor.release('batchLimit2');
  });
});
