import assert from 'node:assert/strict';
import { ApiSpecification } from '../../../support/api-specification/api-specification.js';
import { ScriptedExtractor } from '../../../support/scripted-extractor.js';

describe('list-channel routes: given the store, when a request, then the answer and the events appended', function () {
  // The in-memory database compiles PGlite's WebAssembly once per file, which is slow on a loaded machine.
  this.timeout(120_000);
  let api: ApiSpecification;
  const entries = Array.from({ length: 12 }, (_, i) => ({
    id: `v${i}`,
    title: `Video ${i}`,
    url: `https://www.youtube.com/watch?v=v${i}`,
    uploader: 'Someone',
  }));
  before(async () => {
    const extractor = new ScriptedExtractor({
      listChannel: async (url, { maxVideos }) => ({
        ...{ id: 'UC1', title: 'A channel', channel: 'A channel', channel_id: 'UC1', channel_url: url },
        entries: entries.slice(0, maxVideos),
      }),
    });
    api = await ApiSpecification.start({ extractor });
  });
  after(() => api?.stop());

  const channelUrl = 'https://www.youtube.com/@someone';

  it('answers the listing and charges one unit per ten videos listed, rounded up', async () => {
    const { apiKey } = await api.givenAccount({ addOns: ['channel_list'] });
    const { body, appended } = await api
      .when({ method: 'POST', path: '/list-channel', apiKey, body: { channelUrl, maxVideos: 12 } })
      .then({ status: 200, body: { id: 'UC1' }, events: ['LookupReserved', 'LookupCharged'] });
    assert.equal((body as { entries: unknown[] }).entries.length, 12);
    assert.equal(appended[1].data.units, 2);
  });

  it('refuses an account without the add-on, appending nothing', async () => {
    const { apiKey } = await api.givenAccount();
    await api
      .when({ method: 'POST', path: '/list-channel', apiKey, body: { channelUrl } })
      .then({ status: 403, events: [] });
  });
});
