import assert from 'node:assert/strict';
import { AccountAdministration } from '../../../../application/accounts/account-administration.js';
import { TOKENS } from '../../../../infrastructure/composition/tokens.js';
import { apiClient } from '../../../support/api-client.js';
import { givenReservedDownload } from '../../../support/givens/given-download.js';
import { type TestService, startTestService } from '../../../support/test-service.js';

describe('HTTP: GET /me/statement', function () {
  this.timeout(60_000);
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let account: { accountId: string; apiKey: string };
  let charged: string;
  let released: string;

  before(async () => {
    service = await startTestService({ roles: ['api', 'projector'], label: 'http_statement' });
    call = apiClient(service.url);
    account = await service.createAccount({ planId: 'starter' });
    const store = service.service.container.resolve(TOKENS.storage).eventStore;
    const accounts = service.service.container.resolve(TOKENS.accountCommands);
    charged = await givenReservedDownload(store, { accountId: account.accountId });
    await accounts.handle(account.accountId, {
      type: 'ChargeBandwidth',
      data: { jobId: charged, fileSizeBytes: 45_500_000, now: new Date().toISOString() },
    });
    released = await givenReservedDownload(store, { accountId: account.accountId });
    await accounts.handle(account.accountId, {
      type: 'ReleaseDownload',
      data: { jobId: released, now: new Date().toISOString() },
    });
    await service.service.container
      .resolve(AccountAdministration)
      .grantExtraUnits(account.accountId, 'info', 25, 'support credit');
    await service.settle();
  });
  after(async () => service?.stop());

  const get = (query = '', headers: Record<string, string> = {}) =>
    call('GET', `/api/v2/me/statement${query}`, { key: account.apiKey, headers });

  it('lists the period, the charge, the release and the grant in stream order, ending at what /me shows', async () => {
    const response = await get();
    assert.equal(response.status, 200);
    const { entries, balances, nextCursor } = response.body;
    assert.deepEqual(
      entries.map((entry: { kind: string }) => entry.kind),
      ['period', 'charge', 'release', 'grant'],
    );
    assert.equal(entries[1].jobId, charged);
    assert.equal(entries[1].bandwidthMb, 46);
    assert.equal(entries[2].reference, released);
    assert.equal(nextCursor, null);
    const me = (await call('GET', '/api/v2/me', { key: account.apiKey })).body;
    assert.deepEqual(balances, me.balances);
    const last = entries.at(-1).balances;
    assert.equal(last.bandwidth_mb.used, me.balances.bandwidth_mb.used);
    assert.equal(last.info.remaining, me.balances.info.remaining);
  });

  it('pages by cursor without repeating or skipping an entry, and filters by time', async () => {
    const whole = (await get()).body.entries;
    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { entries: unknown[]; nextCursor: string | null } } = await get(
        `?limit=1${cursor === null ? '' : `&cursor=${cursor}`}`,
      );
      assert.equal(page.status, 200);
      seen.push(...page.body.entries);
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    assert.deepEqual(seen, whole);
    const from = encodeURIComponent(whole[1].at);
    const to = encodeURIComponent(new Date(Date.parse(whole[1].at) + 1).toISOString());
    const window = (await get(`?from=${from}&to=${to}`)).body.entries;
    assert.ok(window.every((entry: { at: string }) => entry.at === whole[1].at));
    assert.ok(window.length >= 1);
  });

  it('answers CSV for Accept: text/csv, one row per entry', async () => {
    const response = await fetch(`${service.url}/api/v2/me/statement`, {
      headers: { Authorization: `Bearer ${account.apiKey}`, Accept: 'text/csv' },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
    const lines = (await response.text()).trimEnd().split('\r\n');
    assert.match(
      lines[0],
      /^at,kind,revision,feature,reference,units,bandwidth_mb,file_size_bytes,subject,download_count_used/,
    );
    assert.equal(lines.length, 5);
    assert.match(lines[2], new RegExp(`,charge,\\d+,download,${charged},1,46,45500000,`));
    assert.match(lines[3], new RegExp(`,release,\\d+,download,${released},`));
  });

  it('refuses malformed parameters with 400 naming them', async () => {
    for (const [query, pattern] of [
      ['?from=yesterday', /from/],
      ['?limit=0', /limit/],
      ['?cursor=bm90LWEtY3Vyc29y', /cursor/],
      ['?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z', /to must be after from/],
    ] as const) {
      const response = await get(query);
      assert.equal(response.status, 400, query);
      assert.match(response.body.error, pattern, query);
    }
  });

  it('shows nothing of another account', async () => {
    const other = await service.createAccount({ planId: 'starter' });
    const response = await call('GET', '/api/v2/me/statement', { key: other.apiKey });
    assert.deepEqual(
      response.body.entries.map((entry: { kind: string }) => entry.kind),
      ['period'],
    );
  });
});
