import assert from 'node:assert/strict';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import { createLogger } from '../../infrastructure/observability/create-logger.js';
import { type RunningService, startService } from '../../infrastructure/service.js';
import { type ApiResponse, apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

describe('per-key and per-account rate limits across two API instances on one database', function () {
  this.timeout(60_000);
  let first: TestService;
  let second: RunningService;
  let callFirst: ReturnType<typeof apiClient>;
  let callSecond: ReturnType<typeof apiClient>;

  before(async () => {
    first = await startTestService({
      label: 'ratelimit',
      env: {
        RATE_LIMIT_KEY_PER_SECOND: '5',
        RATE_LIMIT_ACCOUNT_PER_SECOND: '8',
        RATE_LIMITS_BY_PLAN: 'scale=0/0',
        API_KEY_CACHE_TTL_SECONDS: '1',
      },
    });
    second = await startService(
      { ...first.config, http: { ...first.config.http, port: 0 } },
      new Set(['api']),
      createLogger('silent'),
    );
    callFirst = apiClient(first.url);
    callSecond = apiClient(second.url ?? '');
  });
  after(async () => {
    await second?.stop();
    await first?.stop();
  });

  const unknownJob = '/api/v2/download/00000000-0000-0000-0000-000000000000';
  /** `count` polls (of a job that does not exist: 404) with each key, spread evenly over both instances, all at once. */
  async function burst(keys: string[], count: number): Promise<ApiResponse[]> {
    const requests = keys.flatMap((key) =>
      Array.from({ length: count }, (_, index) =>
        (index % 2 === 0 ? callFirst : callSecond)('GET', unknownJob, { key }),
      ),
    );
    return Promise.all(requests);
  }
  const statuses = (responses: ApiResponse[]) => responses.map((response) => response.status).sort();

  /**
   * Exact counts hold only for requests counted in one window of the limits (a second of the clock): on a busy
   * machine a burst can straddle two. `attempt` runs with a fresh account each time and says whether its counted
   * requests fell within one second; it is run again until they did.
   */
  async function inOneWindow<T>(attempt: () => Promise<{ value: T; inOneSecond: boolean }>): Promise<T> {
    const deadline = Date.now() + 40_000;
    for (;;) {
      const { value, inOneSecond } = await attempt();
      if (inOneSecond) return value;
      assert.ok(Date.now() < deadline, 'no attempt’s requests fitted in one second');
    }
  }
  /** Runs `work` from the start of the next second, so it has the whole second to fit in. */
  async function timed<T>(work: () => Promise<T>): Promise<{ value: T; inOneSecond: boolean }> {
    await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000)));
    const started = Math.floor(Date.now() / 1_000);
    const value = await work();
    return { value, inOneSecond: Math.floor(Date.now() / 1_000) === started };
  }

  it('admits a key’s allowance per second in total, whichever instance answers, then 429 with Retry-After and RateLimit headers', async () => {
    const { apiKey, responses } = await inOneWindow(async () => {
      const { apiKey } = await first.createAccount();
      const { value, inOneSecond } = await timed(() => burst([apiKey], 10));
      return { value: { apiKey, responses: value }, inOneSecond };
    });
    assert.deepEqual(statuses(responses), [404, 404, 404, 404, 404, 429, 429, 429, 429, 429]);
    const refused = responses.find((response) => response.status === 429) as ApiResponse;
    assert.match(refused.body.error, /^Rate limit exceeded: at most 5 requests per second for this API key/);
    assert.doesNotMatch(refused.body.error, /downloads queued/, 'not the pending-downloads message');
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(refused.headers.get('ratelimit-limit'), '5');
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assert.equal(refused.headers.get('x-pending-downloads'), null);
    const admitted = responses.find((response) => response.status === 404) as ApiResponse;
    assert.equal(admitted.headers.get('ratelimit-limit'), '5');
    // The spec: GET /me has no call limit, so it answers while the key's allowance is spent.
    const me = await callFirst('GET', '/api/v2/me', { key: apiKey });
    assert.equal(me.status, 200);
    assert.equal(me.headers.get('ratelimit-limit'), null);

    // Health, metrics and the document are not counted; the allowance comes back after the window.
    assert.equal((await fetch(`${first.url}/healthz`)).status, 200);
    assert.equal((await fetch(`${first.url}/api/v2/openapi.json`)).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.equal((await callSecond('GET', unknownJob, { key: apiKey })).status, 404);
  });

  it('counts all keys of an account against the account’s allowance; polling and submitting count too', async () => {
    const responses = await inOneWindow(async () => {
      const { accountId, apiKey } = await first.createAccount();
      const other = await first.service.container.resolve(AccountAdministration).issueKey(accountId);
      await first.settle();
      return timed(() => burst([apiKey, other.apiKey], 5));
    });
    assert.deepEqual(statuses(responses), [404, 404, 404, 404, 404, 404, 404, 404, 429, 429]);
    const refused = responses.find((response) => response.status === 429) as ApiResponse;
    assert.match(refused.body.error, /for this account/);
    assert.equal(refused.headers.get('ratelimit-limit'), '8');

    const { polls, submit } = await inOneWindow(async () => {
      const { apiKey: fresh } = await first.createAccount();
      return timed(async () => {
        const polls = await Promise.all(
          Array.from({ length: 7 }, (_, index) =>
            (index % 2 === 0 ? callFirst : callSecond)('GET', unknownJob, { key: fresh }),
          ),
        );
        // A body that would be refused with 400 if it got past the limiter: nothing reaches a platform.
        const submit = await callFirst('POST', '/api/v2/download', { key: fresh, json: {} });
        return { polls, submit };
      });
    });
    assert.deepEqual(statuses(polls), [404, 404, 404, 404, 404, 429, 429]);
    assert.equal(submit.status, 429);
    assert.ok(submit.headers.get('retry-after') !== null);
  });

  it('applies a new plan’s limits once the key is looked up again, within the key cache’s lifetime', async () => {
    const { accountId, apiKey, limited } = await inOneWindow(async () => {
      const account = await first.createAccount({ planId: 'starter' });
      const { value, inOneSecond } = await timed(() => burst([account.apiKey], 8));
      return { value: { ...account, limited: statuses(value).includes(429) }, inOneSecond };
    });
    assert.ok(limited, 'the starter plan is limited');
    await first.service.container.resolve(AccountAdministration).changePlan(accountId, 'scale');
    await first.settle();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const responses = await burst([apiKey], 12);
    assert.ok(
      responses.every((response) => response.status === 404),
      JSON.stringify(statuses(responses)),
    );
  });

  it('applies a plan’s own limits (here: none for scale)', async () => {
    const { apiKey } = await first.createAccount({ planId: 'scale' });
    const responses = await burst([apiKey], 12);
    assert.ok(responses.every((response) => response.status === 404));
    assert.equal(responses[0].headers.get('ratelimit-limit'), null);
  });
});
