import assert from 'node:assert/strict';
import { apiClient } from '../support/api-client.js';
import { ScriptedExtractor, videoAt } from '../support/scripted-extractor.js';
import { type TestService, startTestService } from '../support/test-service.js';

const LOOKUP_MS = 1_000;

const watch = (id: string, extra = '') => `https://www.youtube.com/watch?v=${id}${extra}`;

describe('HTTP: submissions share the platform fairly and refuse early', function () {
  this.timeout(120_000);
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  // A platform that takes LOOKUP_MS to describe any video; the extractor records how often it is asked, these when.
  const startedAt = new Map<string, number>();
  const finishedAt = new Map<string, number>();
  const extractor = new ScriptedExtractor({
    probe: async (url) => {
      startedAt.set(url, Date.now());
      await new Promise((resolve) => setTimeout(resolve, LOOKUP_MS));
      finishedAt.set(url, Date.now());
      return videoAt(url);
    },
  });

  before(async () => {
    // No worker role: admitted jobs stay queued.
    service = await startTestService({ roles: ['api', 'projector'], label: 'http_fairness', overrides: { extractor } });
    call = apiClient(service.url);
  });
  after(async () => service?.stop());

  const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; answeredAt: number }> => {
    const value = await work();
    return { value, answeredAt: Date.now() };
  };

  async function eventually(condition: () => boolean, message: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (!condition()) {
      assert.ok(Date.now() < deadline, message);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** When the last of these lookups ended: an answer that queued behind them comes after it. */
  const lastFinished = (urls: string[]) => Math.max(...urls.map((url) => finishedAt.get(url) ?? Infinity));

  it("does not let one account's burst of uncached submissions delay another's beyond one lookup", async () => {
    const busy = await service.createAccount();
    const other = await service.createAccount();
    const burst = Array.from({ length: 40 }, (_, index) =>
      timed(() => call('POST', '/api/v2/download', { key: busy.apiKey, json: { url: watch(`burst-${index}`) } })),
    );
    // The burst holds every extractor slot before the other account asks.
    await eventually(
      () =>
        [...startedAt.keys()].filter((url) => url.includes('burst-')).length >=
        service.config.lookups.extractorConcurrency,
      'the burst never took the slots',
    );
    const sentAt = Date.now();
    const single = await timed(() =>
      call('POST', '/api/v2/download', { key: other.apiKey, json: { url: watch('other-single') } }),
    );
    assert.equal(single.value.status, 200);
    // Scheduling, whatever the machine's speed: once the other account waits, none of the burst's lookups starts before its own
    // (at most the extractor slots free when it arrived were taken by the burst).
    const singleStarted = startedAt.get(watch('other-single')) ?? Infinity;
    const overtaking = [...startedAt].filter(
      ([url, at]) => url.includes('burst-') && at >= sentAt && at < singleStarted,
    );
    // So it waited about one lookup, where a queue in arrival order made it wait for ten.
    assert.ok(
      overtaking.length <= service.config.lookups.extractorConcurrency,
      `${overtaking.length} of the burst's lookups started first`,
    );

    const answers = await Promise.all(burst);
    const refused = answers.filter(({ value }) => value.status === 429);
    assert.ok(refused.length > 0, 'the burst beyond the lookup queue is refused');
    const admittedBurst = [...startedAt.keys()].filter((url) => url.includes('burst-'));
    for (const { value, answeredAt } of refused) {
      assert.match(value.body.error, /waiting for the video platform/);
      assert.ok(Number(value.headers.get('retry-after')) >= 1);
      // Answered without queueing behind the burst's lookups (which take LOOKUP_MS each, four at a time).
      assert.ok(answeredAt < lastFinished(admittedBurst), 'a refusal waited for the lookups');
    }
    assert.ok(answers.every(({ value }) => value.status === 200 || value.status === 429));
    const burstLookups = extractor.probed.filter((url) => url.includes('burst-')).length;
    assert.equal(burstLookups, answers.length - refused.length, 'refused submissions never reached the platform');
  });

  it('refuses submissions beyond the pending limit before any of them reaches the platform', async () => {
    const account = await service.createAccount();
    const cached = await Promise.all(
      Array.from({ length: 95 }, () =>
        call('POST', '/api/v2/download', { key: account.apiKey, json: { url: watch('one-cached-video') } }),
      ),
    );
    assert.ok(
      cached.every((response) => response.status === 200),
      JSON.stringify(
        cached
          .filter((response) => response.status !== 200)
          .map((response) => [response.status, response.body])
          .slice(0, 3),
      ),
    );
    const probesBefore = extractor.probed.length;

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        timed(() => call('POST', '/api/v2/download', { key: account.apiKey, json: { url: watch(`beyond-${index}`) } })),
      ),
    );
    assert.equal(answers.filter(({ value }) => value.status === 200).length, 5);
    const refused = answers.filter(({ value }) => value.status === 429);
    assert.equal(refused.length, 15);
    const admitted = Array.from({ length: 20 }, (_, index) => watch(`beyond-${index}`)).filter((url) =>
      startedAt.has(url),
    );
    for (const { value, answeredAt } of refused) {
      assert.equal(value.headers.get('x-pending-downloads'), '100');
      assert.match(value.body.error, /queued or in progress/);
      assert.ok(answeredAt < lastFinished(admitted), 'a refusal waited for the lookups');
    }
    assert.equal(extractor.probed.length - probesBefore, 5, 'only the admitted submissions reached the platform');
  });

  it('looks a video up once, whatever spelling of its URL is submitted', async () => {
    const account = await service.createAccount();
    const probesBefore = extractor.probed.length;
    for (const url of [
      watch('spelled-many-ways'),
      watch('spelled-many-ways', '&probe=1'),
      watch('spelled-many-ways', '&probe=2'),
      'https://youtu.be/spelled-many-ways',
    ]) {
      const response = await call('POST', '/api/v2/download', { key: account.apiKey, json: { url } });
      assert.equal(response.status, 200, url);
    }
    assert.deepEqual(extractor.probed.slice(probesBefore), ['https://www.youtube.com/watch?v=spelled-many-ways']);
  });

  it('asks the platform for the canonical URL and reports back the URL as submitted', async () => {
    const account = await service.createAccount();
    const submitted = 'https://youtu.be/canonical-check?si=shared-link';
    const response = await call('POST', '/api/v2/download', { key: account.apiKey, json: { url: submitted } });
    assert.equal(response.status, 200);
    assert.equal(extractor.probed.at(-1), 'https://www.youtube.com/watch?v=canonical-check');
    await service.settle();
    const job = await call('GET', `/api/v2/download/${response.body.jobId}`, { key: account.apiKey });
    assert.equal(job.body.url, submitted);
  });

  it('refuses URL spellings the parser would rewrite, and overlong URLs, with 400 naming url, before any lookup', async () => {
    const account = await service.createAccount();
    const probesBefore = extractor.probed.length;
    for (const url of [
      'https:\\\\www.youtube.com\\watch?v=abc',
      'https://%77ww.youtube.com/watch?v=abc',
      'https://www.youtube.com/watch?v=abc&v=def',
      `https://www.youtube.com/watch?v=abc&pad=${'x'.repeat(20_000)}`,
    ]) {
      const response = await call('POST', '/api/v2/download', { key: account.apiKey, json: { url } });
      assert.equal(response.status, 400, url.slice(0, 80));
      assert.match(response.body.error, /^url /);
    }
    assert.equal(extractor.probed.length, probesBefore);
  });
});
