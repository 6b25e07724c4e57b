import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ApiSpecification } from '../../../support/api-specification/api-specification.js';
import { givenQueuedDownload } from '../../../support/givens/given-download.js';
import { ScriptedExtractor, answerAtOnce } from '../../../support/scripted-extractor.js';

describe('download routes: given the store, when a request, then the answer and the events appended', function () {
  // The in-memory database compiles PGlite's WebAssembly once per file, which is slow on a loaded machine.
  this.timeout(120_000);
  let api: ApiSpecification;
  before(async () => {
    api = await ApiSpecification.start({
      extractor: new ScriptedExtractor({ probe: answerAtOnce({ title: 'Clip' }) }),
    });
  });
  after(() => api?.stop());

  describe('POST /download', () => {
    it('reserves the download on the account and queues its job, answering the video it found', async () => {
      const { apiKey } = await api.givenAccount();
      await api
        .when({ method: 'POST', path: '/download', apiKey, body: { url: 'https://youtu.be/abc', format: '720' } })
        .then({
          status: 200,
          body: { title: 'Clip', duration: 60 },
          events: ['DownloadReserved', 'DownloadRequested'],
        });
    });

    it('refuses a body with an unknown format with a 400 naming the field, appending nothing', async () => {
      const { apiKey } = await api.givenAccount();
      const { body } = await api
        .when({ method: 'POST', path: '/download', apiKey, body: { url: 'https://youtu.be/abc', format: '4k' } })
        .then({ status: 400, events: [] });
      assert.match((body as { error: string }).error, /format/);
    });

    it('refuses an account with 100 downloads pending, appending nothing', async () => {
      const { accountId, apiKey } = await api.givenAccount();
      await api.given(async (store) => {
        for (let i = 0; i < 100; i += 1) await givenQueuedDownload(store, { accountId });
      });
      await api
        .when({ method: 'POST', path: '/download', apiKey, body: { url: 'https://youtu.be/abc' } })
        .then({ status: 429, events: [] });
    });
  });

  describe('GET /download/{jobId}', () => {
    it('answers a queued job from the read model, appending nothing', async () => {
      const { accountId, apiKey } = await api.givenAccount();
      const jobId = await api.given((store) => givenQueuedDownload(store, { accountId }));
      await api
        .when({ method: 'GET', path: `/download/${jobId}`, apiKey })
        .then({ status: 200, body: { status: 'IN_QUEUE', title: 'T', duration: 10 }, events: [] });
    });

    it("answers 404 for another account's job and for a job that does not exist", async () => {
      const owner = await api.givenAccount();
      const other = await api.givenAccount();
      const jobId = await api.given((store) => givenQueuedDownload(store, { accountId: owner.accountId }));
      for (const id of [jobId, randomUUID()])
        await api
          .when({ method: 'GET', path: `/download/${id}`, apiKey: other.apiKey })
          .then({ status: 404, events: [] });
    });
  });

  describe('DELETE /download/{jobId}', () => {
    it('fails a queued job and releases its reservation, answering it as failed', async () => {
      const { accountId, apiKey } = await api.givenAccount();
      const jobId = await api.given((store) => givenQueuedDownload(store, { accountId }));
      await api
        .when({ method: 'DELETE', path: `/download/${jobId}`, apiKey })
        .then({ status: 200, body: { status: 'FAILED' }, events: ['DownloadFailed', 'DownloadReleased'] });
    });
  });
});
