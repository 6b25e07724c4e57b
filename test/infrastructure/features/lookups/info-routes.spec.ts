import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ApiSpecification } from '../../../support/api-specification/api-specification.js';
import { givenPendingInfoJob } from '../../../support/givens/given-lookup.js';

describe('info routes: given the store, when a request, then the answer and the events appended', function () {
  // The in-memory database compiles PGlite's WebAssembly once per file, which is slow on a loaded machine.
  this.timeout(120_000);
  let api: ApiSpecification;
  before(async () => {
    api = await ApiSpecification.start();
  });
  after(() => api?.stop());

  it('POST /info reserves an info unit and requests the job, answering it pending', async () => {
    const { apiKey } = await api.givenAccount();
    await api
      .when({ method: 'POST', path: '/info', apiKey, body: { url: 'https://youtu.be/abc' } })
      .then({ status: 200, body: { status: 'pending' }, events: ['LookupReserved', 'InfoRequested'] });
  });

  it('POST /info refuses a URL of no video platform with a 400 naming the field, appending nothing', async () => {
    const { apiKey } = await api.givenAccount();
    const { body } = await api
      .when({ method: 'POST', path: '/info', apiKey, body: { url: 'https://example.com/abc' } })
      .then({ status: 400, events: [] });
    assert.match((body as { error: string }).error, /\burl\b/);
  });

  it('GET /info/{jobId} answers a pending job, and 404 to another account', async () => {
    const owner = await api.givenAccount();
    const other = await api.givenAccount();
    const jobId = await api.given((store) => givenPendingInfoJob(store, { accountId: owner.accountId }));
    await api
      .when({ method: 'GET', path: `/info/${jobId}`, apiKey: owner.apiKey })
      .then({ status: 200, body: { jobId, status: 'pending' }, events: [] });
    await api.when({ method: 'GET', path: `/info/${jobId}`, apiKey: other.apiKey }).then({ status: 404, events: [] });
    await api
      .when({ method: 'GET', path: `/info/${randomUUID()}`, apiKey: owner.apiKey })
      .then({ status: 404, events: [] });
  });
});
