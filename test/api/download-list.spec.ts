import assert from 'node:assert/strict';
import type { AccountCommandHandler } from '../../application/accounts/account-commands.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { apiClient } from '../support/api-client.js';
import { ScriptedExtractor, answerAtOnce } from '../support/scripted-extractor.js';
import { type TestService, startTestService } from '../support/test-service.js';

for (const embedded of [false, true]) {
  describe(`HTTP: GET /downloads (${embedded ? 'embedded' : 'server'} mode)`, function () {
    this.timeout(120_000);
    let service: TestService;
    let call: ReturnType<typeof apiClient>;

    before(async () => {
      // No worker: submitted jobs stay IN_QUEUE until cancelled.
      service = await startTestService({
        roles: ['api', 'projector'],
        label: 'http_download_list',
        embedded,
        overrides: { extractor: new ScriptedExtractor({ probe: answerAtOnce() }) },
      });
      call = apiClient(service.url);
    });
    after(async () => service?.stop());

    const submit = async (key: string, n: number): Promise<string> => {
      const response = await call('POST', '/api/v2/download', {
        key,
        json: { url: `https://www.youtube.com/watch?v=vid${n}`, format: 'audio' },
      });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body.jobId as string;
    };
    const allPages = async (key: string, query: string): Promise<string[]> => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const page = await call('GET', `/api/v2/downloads?${query}${suffix}`, { key });
        assert.equal(page.status, 200, JSON.stringify(page.body));
        ids.push(...page.body.jobs.map((job: { jobId: string }) => job.jobId));
        cursor = page.body.nextCursor;
      } while (cursor !== null);
      return ids;
    };

    it('lists only the caller’s jobs, newest first, each exactly as GET /download/{jobId} answers it, across pages', async () => {
      const { apiKey } = await service.createAccount();
      const other = await service.createAccount();
      const submitted: string[] = [];
      for (let n = 0; n < 5; n += 1) submitted.push(await submit(apiKey, n));
      await submit(other.apiKey, 99);
      await service.settle();

      const first = await call('GET', '/api/v2/downloads', { key: apiKey });
      assert.equal(first.status, 200);
      assert.deepEqual(
        first.body.jobs.map((job: { jobId: string }) => job.jobId),
        [...submitted].reverse(),
      );
      assert.equal(first.body.nextCursor, null);
      for (const job of first.body.jobs)
        assert.deepEqual(job, (await call('GET', `/api/v2/download/${job.jobId}`, { key: apiKey })).body);

      assert.deepEqual(await allPages(apiKey, 'limit=2'), [...submitted].reverse());
      assert.deepEqual(await allPages(other.apiKey, 'limit=1'), [
        (await call('GET', '/api/v2/downloads', { key: other.apiKey })).body.jobs[0].jobId,
      ]);
    });

    it('keeps its pages stable while new jobs are submitted between them', async () => {
      const { apiKey } = await service.createAccount();
      const older: string[] = [];
      for (let n = 0; n < 4; n += 1) older.push(await submit(apiKey, n));
      await service.settle();
      const first = await call('GET', '/api/v2/downloads?limit=2', { key: apiKey });
      assert.deepEqual(
        first.body.jobs.map((job: { jobId: string }) => job.jobId),
        [older[3], older[2]],
      );
      await submit(apiKey, 10);
      await submit(apiKey, 11);
      await service.settle();
      const second = await call('GET', `/api/v2/downloads?limit=2&cursor=${first.body.nextCursor}`, { key: apiKey });
      assert.deepEqual(
        second.body.jobs.map((job: { jobId: string }) => job.jobId),
        [older[1], older[0]],
      );
      assert.equal(second.body.nextCursor, null);
    });

    it('filters by status', async () => {
      const { apiKey, accountId } = await service.createAccount();
      const kept = await submit(apiKey, 1);
      const cancelled = await submit(apiKey, 2);
      assert.equal((await call('DELETE', `/api/v2/download/${cancelled}`, { key: apiKey })).status, 200);
      // No worker runs here: release the cancelled job's reservation as its billing settlement would,
      // since a finished job reads as FAILED (in a poll as in the list) only once /me shows its release.
      const accounts = service.service.container.resolve<AccountCommandHandler>(TOKENS.accountCommands);
      await accounts.handle(accountId, {
        type: 'ReleaseDownload',
        data: { jobId: cancelled, now: new Date().toISOString() },
      });
      await service.settle();
      const deadline = Date.now() + 30_000;
      while ((await call('GET', `/api/v2/download/${cancelled}`, { key: apiKey })).body.status !== 'FAILED') {
        assert.ok(Date.now() < deadline, 'the cancelled job never read as FAILED');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.deepEqual(await allPages(apiKey, 'status=FAILED'), [cancelled]);
      assert.deepEqual(await allPages(apiKey, 'status=IN_QUEUE'), [kept]);
      assert.deepEqual(await allPages(apiKey, 'status=COMPLETED'), []);
    });

    it('answers the same under every API prefix and letter case, and 401 without a valid key', async () => {
      const { apiKey } = await service.createAccount();
      const jobId = await submit(apiKey, 1);
      await service.settle();
      for (const prefix of ['/api/v2', '/API/V2', '/api/v1', '/v2']) {
        const response = await call('GET', `${prefix}/downloads`, { key: apiKey });
        assert.equal(response.status, 200, prefix);
        assert.deepEqual(
          response.body.jobs.map((job: { jobId: string }) => job.jobId),
          [jobId],
        );
      }
      assert.equal((await call('GET', '/api/v2/downloads')).status, 401);
      assert.equal((await call('GET', '/api/v2/downloads', { key: 'vds_not_a_key' })).status, 401);
    });

    it('answers 400 naming the field for a malformed limit, status or cursor', async () => {
      const { apiKey } = await service.createAccount();
      await submit(apiKey, 1);
      const forge = (createdAt: string) => Buffer.from(JSON.stringify([createdAt, 'x'])).toString('base64url');
      const forged = forge('yesterday');
      const cases: Array<[string, string]> = [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=100000000000000000000', 'limit'],
        ['limit=abc', 'limit'],
        ['limit=1.5', 'limit'],
        ['limit=-1', 'limit'],
        ['limit=1&limit=2', 'limit'],
        ['status=DONE', 'status'],
        ['status=in_queue', 'status'],
        ['cursor=', 'cursor'],
        ['cursor=%%%', 'cursor'],
        ['cursor=not-a-cursor', 'cursor'],
        [`cursor=${forged}`, 'cursor'],
        // Dates that do not exist, and year 0, which PostgreSQL refuses: never a query, never a 500.
        [`cursor=${forge('2026-02-30T00:00:00Z')}`, 'cursor'],
        [`cursor=${forge('0000-01-01T00:00:00Z')}`, 'cursor'],
        [`cursor=${forge('2026-13-01T00:00:00Z')}`, 'cursor'],
        [`cursor=${'a'.repeat(10_000)}`, 'cursor'],
      ];
      for (const [query, field] of cases) {
        const response = await call('GET', `/api/v2/downloads?${query}`, { key: apiKey });
        assert.equal(response.status, 400, `${query}: ${JSON.stringify(response.body)}`);
        assert.match(response.body.error, new RegExp(`^${field}\\b`), query);
      }
      assert.equal((await call('GET', '/api/v2/downloads?limit=100', { key: apiKey })).status, 200);
    });
  });
}
