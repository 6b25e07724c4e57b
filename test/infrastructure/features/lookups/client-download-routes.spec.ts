import { ApiSpecification } from '../../../support/api-specification/api-specification.js';
import { givenPendingClientDownloadJob } from '../../../support/givens/given-lookup.js';

describe('client-download routes: given the store, when a request, then the answer and the events appended', function () {
  // The in-memory database compiles PGlite's WebAssembly once per file, which is slow on a loaded machine.
  this.timeout(120_000);
  let api: ApiSpecification;
  before(async () => {
    api = await ApiSpecification.start();
  });
  after(() => api?.stop());

  const reel = 'https://www.instagram.com/reel/C0abc/';

  it('POST /client-download reserves a unit of the add-on and requests the job, answering it pending', async () => {
    const { apiKey } = await api.givenAccount({ addOns: ['client_download'] });
    await api
      .when({ method: 'POST', path: '/client-download', apiKey, body: { url: reel } })
      .then({ status: 200, body: { status: 'pending' }, events: ['LookupReserved', 'ClientDownloadRequested'] });
  });

  it('POST /client-download refuses an account without the add-on, appending nothing', async () => {
    const { apiKey } = await api.givenAccount();
    await api
      .when({ method: 'POST', path: '/client-download', apiKey, body: { url: reel } })
      .then({ status: 403, events: [] });
  });

  it('GET /client-download/{jobId} answers a pending job', async () => {
    const { accountId, apiKey } = await api.givenAccount({ addOns: ['client_download'] });
    const jobId = await api.given((store) => givenPendingClientDownloadJob(store, { accountId }));
    await api
      .when({ method: 'GET', path: `/client-download/${jobId}`, apiKey })
      .then({ status: 200, body: { jobId, status: 'pending' }, events: [] });
  });
});
