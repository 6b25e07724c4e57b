import assert from 'node:assert/strict';
import { type ApiResponse, apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

/** Every spelling of a prefix the router might match, whatever the letter case. */
function casings(prefix: string): string[] {
  const upper = prefix.toUpperCase();
  const title = prefix.replace(/\/([a-z])/g, (_, letter: string) => `/${letter.toUpperCase()}`);
  const lastUpper = prefix.replace(/[a-z]+\d*$/, (segment) => segment.toUpperCase());
  return [...new Set([prefix, upper, title, lastUpper])];
}

describe('HTTP: every API prefix in every letter case needs a key', function () {
  this.timeout(60_000);
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let ownKey: string;
  let otherAccountsJob: string;

  before(async () => {
    service = await startTestService({ roles: ['api', 'projector'], label: 'http_prefix_auth' });
    call = apiClient(service.url);
    ({ apiKey: ownKey } = await service.createAccount());
    // A job id that exists for nobody: an unauthenticated poll must not even say "not found".
    otherAccountsJob = 'job-of-another-account';
  });
  after(async () => service?.stop());

  const prefixes = () => ['/api/v2', ...service.config.http.legacyApiPrefixes].flatMap(casings);

  const assertUnauthorized = (response: ApiResponse, label: string) => {
    assert.equal(response.status, 401, `${label}: ${response.status} ${JSON.stringify(response.body)}`);
    assert.equal(typeof response.body.error, 'string', label);
  };

  it('answers 401 without a key on every casing of every prefix', async () => {
    for (const prefix of prefixes()) {
      assertUnauthorized(await call('GET', `${prefix}/me`), `GET ${prefix}/me`);
      assertUnauthorized(await call('GET', `${prefix}/me/`), `GET ${prefix}/me/`);
      assertUnauthorized(await call('GET', `${prefix}/download/${otherAccountsJob}`), `GET ${prefix}/download`);
      assertUnauthorized(
        await call('POST', `${prefix}/download`, { json: { url: 'https://www.youtube.com/watch?v=abc' } }),
        `POST ${prefix}/download`,
      );
      assertUnauthorized(await call('GET', `${prefix}/no-such-route`), `GET ${prefix}/no-such-route`);
    }
  });

  it('answers 401 "Invalid API key" for a foreign key on every casing of every prefix', async () => {
    for (const prefix of prefixes()) {
      const response = await call('GET', `${prefix}/me`, { key: 'vds_someone-elses-key' });
      assertUnauthorized(response, `GET ${prefix}/me`);
      assert.equal(response.body.error, 'Invalid API key');
    }
  });

  it('serves the account to its own key on every casing of every prefix', async () => {
    for (const prefix of prefixes()) {
      const response = await call('GET', `${prefix}/me`, { key: ownKey });
      assert.equal(response.status, 200, `GET ${prefix}/me`);
      assert.equal(response.body.email, 'test@example.com');
    }
  });
});
