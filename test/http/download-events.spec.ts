import assert from 'node:assert/strict';
import type { EventStore } from '../../application/ports/event-store.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { assertMatchesOpenApi } from '../support/response-validator.js';
import { apiClient } from '../support/api-client.js';
import { ControlledExtractor } from '../support/controlled-extractor.js';
import { EventStreamClient } from '../support/event-stream-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

for (const embedded of [false, true]) {
  describe(`HTTP: GET /download/{jobId}/events (${embedded ? 'embedded' : 'server'} mode)`, function () {
    this.timeout(120_000);
    let service: TestService;
    let call: ReturnType<typeof apiClient>;
    let extractor: ControlledExtractor;
    const streams: EventStreamClient[] = [];

    before(async () => {
      extractor = new ControlledExtractor();
      service = await startTestService({
        label: 'http_download_events',
        embedded,
        overrides: { extractor },
        env: { EVENT_STREAMS_PER_KEY: '2', EVENT_STREAMS_MAX: '4', EVENT_STREAM_HEARTBEAT_MS: '300' },
      });
      call = apiClient(service.url);
    });
    afterEach(() => {
      for (const stream of streams.splice(0)) stream.close();
    });
    after(async () => service?.stop());

    const open = async (path: string, key: string | undefined, headers: Record<string, string> = {}) => {
      const stream = await EventStreamClient.open(`${service.url}${path}`, {
        ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
        ...headers,
      });
      streams.push(stream);
      return stream;
    };
    const submit = async (key: string, videoId: string): Promise<string> => {
      const response = await call('POST', '/api/v2/download', {
        key,
        json: { url: `https://www.youtube.com/watch?v=${videoId}`, format: 'audio' },
      });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body.jobId as string;
    };
    const checkBodies = (stream: EventStreamClient, jobId: string) => {
      for (const body of stream.bodies())
        assertMatchesOpenApi('GET', `/api/v2/download/${jobId}`, 200, body, { 'content-type': 'application/json' });
      const ids = stream.events.map((event) => Number(event.id));
      assert.ok(
        ids.every((id, index) => Number.isSafeInteger(id) && (index === 0 || id > ids[index - 1])),
        `ids grow: ${ids.join(',')}`,
      );
      assert.ok(stream.events.every((event) => event.event === 'job'));
    };

    it('sends the current body at once, then each change of status, and closes after the terminal body', async () => {
      const { apiKey } = await service.createAccount();
      const videoId = `watch${embedded ? 'E' : 'S'}1`;
      const jobId = await submit(apiKey, videoId);
      const stream = await open(`/api/v2/download/${jobId}/events`, apiKey);
      assert.equal(stream.response.status, 200);
      assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(stream.response.headers.get('cache-control'), 'no-cache');
      const first = await stream.waitFor('the first event', () => stream.bodies()[0]);
      assert.equal(first.jobId, jobId);
      assert.ok(['IN_QUEUE', 'IN_PROGRESS'].includes(first.status));
      await stream.waitFor('the running body', () => stream.bodies().find((body) => body.status === 'IN_PROGRESS'));

      extractor.release(videoId);
      const done = await stream.waitFor('the completed body', () =>
        stream.bodies().find((body) => body.status === 'COMPLETED'),
      );
      assert.equal(typeof done.downloadUrl, 'string');
      // The stream folds the job's own events, ahead of the read model a poll reads.
      await service.settle();
      const poll = await call('GET', `/api/v2/download/${jobId}`, { key: apiKey });
      assert.equal(poll.status, 200, JSON.stringify(poll.body));
      assert.deepEqual(done, { ...poll.body, downloadUrl: done.downloadUrl });
      await stream.waitFor('the server to close the stream', () => (stream.ended ? true : undefined));
      assert.equal(stream.bodies().at(-1).status, 'COMPLETED');
      checkBodies(stream, jobId);
    });

    it('sends the progress of a running download about once a second, which a poll and the list show too', async () => {
      const { apiKey } = await service.createAccount();
      const videoId = `progress${embedded ? 'E' : 'S'}`;
      const jobId = await submit(apiKey, videoId);
      const stream = await open(`/api/v2/download/${jobId}/events`, apiKey);
      const withProgress = () => stream.bodies().filter((body) => body.progress !== undefined);
      await stream.waitFor('two progress events', () => (withProgress().length >= 2 ? true : undefined));
      const [first, second] = withProgress();
      assert.equal(first.status, 'IN_PROGRESS');
      assert.equal(first.progress.stage, 'downloading');
      assert.equal(first.progress.totalBytes, 1_000_000);
      assert.ok(second.progress.downloadedBytes > first.progress.downloadedBytes);
      assert.ok(second.progress.percent > 0 && second.progress.percent < 100);
      const poll = await call('GET', `/api/v2/download/${jobId}`, { key: apiKey });
      assert.equal(poll.body.progress?.stage, 'downloading');
      await service.settle();
      const listed = (await call('GET', '/api/v2/downloads', { key: apiKey })).body.jobs[0];
      assert.equal(listed.progress?.stage, 'downloading');

      // The controlled download reports every 50 ms; the worker passes on at most one report a second.
      const times: number[] = [];
      const counted = withProgress().length;
      while (times.length < 3) {
        await stream.waitFor('one more progress event', () =>
          withProgress().length > counted + times.length ? true : undefined,
        );
        times.push(Date.now());
      }
      assert.ok(times[2] - times[0] >= 1_500, `reports are spaced: ${times.join(',')}`);

      extractor.release(videoId);
      const done = await stream.waitFor('the completed body', () =>
        stream.bodies().find((body) => body.status === 'COMPLETED'),
      );
      assert.equal(done.progress, undefined);
      assert.equal((await call('GET', `/api/v2/download/${jobId}`, { key: apiKey })).body.progress, undefined);
      checkBodies(stream, jobId);
      const recorded = await service.service.container
        .resolve<EventStore>(TOKENS.eventStore)
        .readStream(`download-${jobId}`);
      assert.deepEqual(
        recorded.map((event) => event.type),
        ['DownloadRequested', 'DownloadStarted', 'DownloadCompleted'],
        'progress is never an event',
      );
    });

    it('answers a stream of a terminal job with its body and closes; Last-Event-ID resumes without repeating', async () => {
      const { apiKey } = await service.createAccount();
      const jobId = await submit(apiKey, `cancel${embedded ? 'E' : 'S'}`);
      const before = await open(`/api/v2/download/${jobId}/events`, apiKey);
      const firstEvent = await before.waitFor('the first event', () => before.events[0]);
      before.close();

      const resumed = await open(`/api/v2/download/${jobId}/events`, apiKey, {
        'Last-Event-ID': String(firstEvent.id),
      });
      // Nothing newer than that id yet (or only the job's start): the first body is not sent again.
      assert.equal((await call('DELETE', `/api/v2/download/${jobId}`, { key: apiKey })).status, 200);
      const failed = await resumed.waitFor('the failed body', () =>
        resumed.bodies().find((body) => body.status === 'FAILED'),
      );
      assert.equal(failed.jobId, jobId);
      assert.ok(resumed.events.every((event) => Number(event.id) > Number(firstEvent.id)));
      await resumed.waitFor('the server to close the stream', () => (resumed.ended ? true : undefined));
      checkBodies(resumed, jobId);

      const after = await open(`/api/v2/download/${jobId}/events`, apiKey);
      await after.waitFor('the server to close the stream', () => (after.ended ? true : undefined));
      assert.deepEqual(
        after.bodies().map((body) => body.status),
        ['FAILED'],
      );
      const caughtUp = await open(`/api/v2/download/${jobId}/events`, apiKey, {
        'Last-Event-ID': String(after.events[0].id),
      });
      assert.equal(caughtUp.response.status, 200);
      await caughtUp.waitFor('the server to close the caught-up stream', () => (caughtUp.ended ? true : undefined));
      assert.equal(caughtUp.events.length, 0);
    });

    it('closes a finished job’s stream resumed past its last event, without sending it, and frees its place', async () => {
      const { apiKey } = await service.createAccount();
      const jobId = await submit(apiKey, `resumePast${embedded ? 'E' : 'S'}`);
      assert.equal((await call('DELETE', `/api/v2/download/${jobId}`, { key: apiKey })).status, 200);
      const finished = await open(`/api/v2/download/${jobId}/events`, apiKey);
      await finished.waitFor('the server to close the stream', () => (finished.ended ? true : undefined));
      const lastId = Number(finished.events.at(-1)?.id);
      // EVENT_STREAMS_PER_KEY is 2: streams that stayed open would leave no place for the last one.
      for (const given of [String(lastId + 1), '9'.repeat(32), String(lastId + 1)]) {
        const resumed = await open(`/api/v2/download/${jobId}/events`, apiKey, { 'Last-Event-ID': given });
        assert.equal(resumed.response.status, 200, given);
        await resumed.waitFor('the server to close the stream', () => (resumed.ended ? true : undefined));
        assert.deepEqual(resumed.events, [], given);
      }
    });

    it('answers 400 naming Last-Event-ID when it is not 1 to 32 digits, before taking a place', async () => {
      const { apiKey } = await service.createAccount();
      const jobId = await submit(apiKey, `resumeBad${embedded ? 'E' : 'S'}`);
      for (const given of ['abc', '12a', '-1', '1.5', '1e3', '1'.repeat(33)]) {
        const refused = await call('GET', `/api/v2/download/${jobId}/events`, {
          key: apiKey,
          headers: { 'Last-Event-ID': given },
        });
        assert.equal(refused.status, 400, given);
        assert.match(refused.body.error, /Last-Event-ID/, given);
      }
      const stream = await open(`/api/v2/download/${jobId}/events`, apiKey, { 'Last-Event-ID': '1'.repeat(32) });
      assert.equal(stream.response.status, 200);
      await call('DELETE', `/api/v2/download/${jobId}`, { key: apiKey });
      await stream.waitFor('the server to close the stream', () => (stream.ended ? true : undefined));
      assert.deepEqual(stream.events, [], 'nothing is newer than an id past every frame');
    });

    it('answers 404 JSON for an unknown or foreign job and 401 without a valid key, under every prefix', async () => {
      const { apiKey } = await service.createAccount();
      const other = await service.createAccount();
      const jobId = await submit(apiKey, `foreign${embedded ? 'E' : 'S'}`);
      for (const prefix of ['/api/v2', '/API/V2', '/api/v1', '/v2']) {
        assert.equal(
          (await call('GET', `${prefix}/download/${jobId}/events`, { key: other.apiKey })).status,
          404,
          prefix,
        );
        assert.equal((await call('GET', `${prefix}/download/no-such-job/events`, { key: apiKey })).status, 404, prefix);
        assert.equal((await call('GET', `${prefix}/download/${jobId}/events`)).status, 401, prefix);
        assert.equal(
          (await call('GET', `${prefix}/download/${jobId}/events`, { key: 'vds_nope' })).status,
          401,
          prefix,
        );
      }
      assert.equal((await call('GET', `/api/v2/download/${'x'.repeat(300)}/events`, { key: apiKey })).status, 404);
      const stream = await open(`/API/V2/Download/${jobId}/Events`, apiKey);
      assert.equal(stream.response.status, 200);
      await stream.waitFor('the first event', () => stream.events[0]);
      assert.equal((await call('DELETE', `/api/v2/download/${jobId}`, { key: apiKey })).status, 200);
    });

    it('limits open streams per key and per process with 429 JSON, and frees a place when a stream closes', async () => {
      const first = await service.createAccount();
      const second = await service.createAccount();
      const jobA = await submit(first.apiKey, `limitA${embedded ? 'E' : 'S'}`);
      const jobB = await submit(second.apiKey, `limitB${embedded ? 'E' : 'S'}`);
      const a1 = await open(`/api/v2/download/${jobA}/events`, first.apiKey);
      const a2 = await open(`/api/v2/download/${jobA}/events`, first.apiKey);
      assert.equal(a1.response.status, 200);
      assert.equal(a2.response.status, 200);
      const refused = await call('GET', `/api/v2/download/${jobA}/events`, { key: first.apiKey });
      assert.equal(refused.status, 429);
      assert.match(refused.body.error, /API key/);

      const b1 = await open(`/api/v2/download/${jobB}/events`, second.apiKey);
      const b2 = await open(`/api/v2/download/${jobB}/events`, second.apiKey);
      assert.equal(b1.response.status, 200);
      assert.equal(b2.response.status, 200);
      const third = await service.createAccount();
      const jobC = await submit(third.apiKey, `limitC${embedded ? 'E' : 'S'}`);
      const overProcess = await call('GET', `/api/v2/download/${jobC}/events`, { key: third.apiKey });
      assert.equal(overProcess.status, 429);
      assert.match(overProcess.body.error, /server/);

      a1.close();
      const deadline = Date.now() + 20_000;
      let admitted = await open(`/api/v2/download/${jobA}/events`, first.apiKey);
      while (admitted.response.status === 429 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        admitted = await open(`/api/v2/download/${jobA}/events`, first.apiKey);
      }
      assert.equal(admitted.response.status, 200);
      for (const jobId of [jobA, jobB, jobC]) {
        const owner = jobId === jobA ? first : jobId === jobB ? second : third;
        await call('DELETE', `/api/v2/download/${jobId}`, { key: owner.apiKey });
      }
    });

    it('sends heartbeat comments while nothing changes', async () => {
      const { apiKey } = await service.createAccount();
      const jobId = await submit(apiKey, `quiet${embedded ? 'E' : 'S'}`);
      const stream = await open(`/api/v2/download/${jobId}/events`, apiKey);
      await stream.waitFor('a ping comment', () => stream.comments.find((comment) => comment === 'ping'));

      await call('DELETE', `/api/v2/download/${jobId}`, { key: apiKey });
    });
  });
}
