import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

const run = promisify(execFile);

describe('admin CLI', function () {
  this.timeout(60_000);
  let service: TestService;
  let admin: (...args: string[]) => Promise<{ stdout: string; stderr: string }>;

  before(async () => {
    service = await startTestService({ roles: ['api', 'projector'], label: 'admin_cli' });
    const env = {
      ...process.env,
      DATABASE_URL: service.config.storage.databaseUrl,
      MASTER_KEY_FILE: service.config.security.masterKeyFile,
      LOG_LEVEL: 'silent',
    };
    admin = (...args) => run(process.execPath, [path.resolve('build/infrastructure/cli/admin.js'), ...args], { env });
  });
  after(async () => service?.stop());

  it('creates an account whose printed key works at once, and manages it', async () => {
    const { stdout } = await admin(
      'create-account',
      '--name',
      'Cli User',
      '--email',
      'cli@example.com',
      '--plan',
      'growth',
      '--add-on',
      'client_download',
    );
    const created = JSON.parse(stdout);
    assert.match(created.apiKey, /^vds_/);
    const call = apiClient(service.url);
    const me = await call('GET', '/api/v2/me', { key: created.apiKey });
    assert.equal(me.status, 200);
    assert.equal(me.body.plan.id, 'growth');
    assert.ok('client_download' in me.body.balances);

    await admin('grant', '--account', created.accountId, '--feature', 'bandwidth_mb', '--units', '500');
    await admin('revoke-key', '--account', created.accountId, '--key', created.keyId);
    await service.settle();
    assert.equal((await call('GET', '/api/v2/me', { key: created.apiKey })).status, 401);
    const listed = JSON.parse((await admin('list-accounts')).stdout);
    assert.deepEqual(
      listed.find((account: { accountId: string }) => account.accountId === created.accountId)?.apiKeys,
      [{ keyId: created.keyId, revoked: true }],
    );
  });

  it('issues an operator token that opens the admin API, suspends and reactivates an account, and revokes the token', async () => {
    const issued = JSON.parse((await admin('issue-operator-token', '--name', 'billing', '--scope', 'write')).stdout);
    assert.match(issued.token, /^vdo_/);
    const call = apiClient(service.url);
    const { accountId, apiKey } = await service.createAccount();
    const suspended = await call('POST', `/admin/v1/accounts/${accountId}/suspension`, {
      key: issued.token,
      json: { reason: 'checked by phone' },
    });
    assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
    await admin('reactivate', '--account', accountId);
    await service.settle();
    assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 200);
    await admin('suspend', '--account', accountId, '--reason', 'fraud review');
    await service.settle();
    assert.match((await call('GET', '/api/v2/me', { key: apiKey })).body.error, /suspended: fraud review/);
    const events = await service.service.container.resolve(TOKENS.eventStore).readStream(`account-${accountId}`);
    assert.deepEqual(
      events.slice(-3).map((event) => [event.type, event.metadata.actor]),
      [
        ['AccountSuspended', `operator:${issued.tokenId}`],
        ['AccountReactivated', 'cli'],
        ['AccountSuspended', 'cli'],
      ],
    );
    const tokens = JSON.parse((await admin('list-operator-tokens')).stdout);
    assert.deepEqual(
      tokens.map((token: { name: string; scope: string }) => [token.name, token.scope]),
      [['billing', 'write']],
    );
    assert.ok(!JSON.stringify(tokens).includes(issued.token), 'no token listed');
    await admin('revoke-operator-token', '--token', issued.tokenId);
    await service.settle();
    assert.equal((await call('GET', '/admin/v1/system', { key: issued.token })).status, 401);
    await assert.rejects(admin('issue-operator-token', '--name', 'x', '--scope', 'root'), /--scope must be one of/);
  });

  it('refuses bad input with a message and exit code 2', async () => {
    await assert.rejects(
      admin('create-account', '--name', 'X', '--email', 'x@example.com', '--plan', 'platinum'),
      (error: { code?: number; stderr?: string }) => {
        assert.equal(error.code, 2);
        assert.match(error.stderr ?? '', /--plan must be one of: free, starter, growth, scale, custom/);
        return true;
      },
    );
    await assert.rejects(
      admin('grant', '--account', 'nope', '--feature', 'info', '--units', '1'),
      (error: { code?: number; stderr?: string }) => {
        assert.equal(error.code, 2);
        assert.match(error.stderr ?? '', /Account not found/);
        return true;
      },
    );
  });

  it('closes and erases an account, and wraps the data keys again under a new master key', async () => {
    const created = JSON.parse(
      (await admin('create-account', '--name', 'Forget Me', '--email', 'forget.me@example.com')).stdout,
    );
    const erased = JSON.parse((await admin('close', '--account', created.accountId, '--erase')).stdout);
    assert.deepEqual(erased, { accountId: created.accountId, filesDeleted: 0, status: 'closed', erased: true });
    await service.settle();
    const listed = JSON.parse((await admin('list-accounts')).stdout);
    const row = listed.find((account: { accountId: string }) => account.accountId === created.accountId);
    assert.deepEqual([row?.name, row?.email], ['[erased]', '[erased]']);
    assert.equal((await apiClient(service.url)('GET', '/api/v2/me', { key: created.apiKey })).status, 403);

    // The service's master key becomes the previous one; the CLI runs under a new one.
    const previous = (await readFile(service.config.security.masterKeyFile, 'utf8')).trim();
    const rotated = { MASTER_KEY: randomBytes(32).toString('hex'), PREVIOUS_MASTER_KEYS: previous };
    const rotate = (...args: string[]) =>
      run(process.execPath, [path.resolve('build/infrastructure/cli/admin.js'), ...args], {
        env: { ...process.env, DATABASE_URL: service.config.storage.databaseUrl, LOG_LEVEL: 'silent', ...rotated },
      });
    const first = JSON.parse((await rotate('rotate-master-key')).stdout);
    assert.ok(first.rewrapped >= 2, JSON.stringify(first));
    assert.deepEqual(JSON.parse((await rotate('rotate-master-key')).stdout), { rewrapped: 0 });
  });
});
