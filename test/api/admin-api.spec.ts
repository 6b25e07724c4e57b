import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { OperatorTokens } from '../../application/operators/operator-tokens.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { ensureDeadLetterTable } from '../../infrastructure/postgres/dead-letter-table.js';
import { workSubject } from '../../infrastructure/work-queue/work-subject.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

/** The admin API over HTTP: who may reach it, what each write does, and that a retried write happens once. */
describe('HTTP: the admin API under /admin/v1', function () {
  this.timeout(120_000);
  let service: TestService;
  let call: ReturnType<typeof apiClient>;
  let writer: string;
  let reader: string;
  let writerId: string;

  before(async () => {
    service = await startTestService({ roles: ['api', 'projector'], label: 'admin_api' });
    call = apiClient(service.url);
    const operators = service.service.container.resolve(OperatorTokens);
    const written = await operators.issue('billing system', 'write');
    writer = written.token;
    writerId = written.tokenId;
    reader = (await operators.issue('support desk', 'read')).token;
    await service.settle();
  });
  after(async () => service?.stop());

  const admin = (method: string, path: string, token: string, json?: object, headers?: Record<string, string>) =>
    call(method, `/admin/v1${path}`, { key: token, json, headers });

  it('answers 401 without a token, with an account’s API key, under any letter case and on unknown paths', async () => {
    const { apiKey } = await service.createAccount();
    for (const path of ['/admin/v1/accounts', '/ADMIN/V1/accounts', '/Admin/v1/system', '/admin/v1/no-such-thing']) {
      for (const key of [undefined, apiKey, 'vdo_not-a-token']) {
        const response = await call('GET', path, { key });
        assert.equal(response.status, 401, `${path} with ${key?.slice(0, 4)}: ${JSON.stringify(response.body)}`);
        assert.match(response.body.error, /operator token/);
      }
    }
    assert.equal((await call('GET', '/api/v2/me', { key: writer })).status, 401, 'an operator token is no API key');
    assert.equal((await admin('GET', '/accounts', reader)).status, 200);
  });

  it('lets a read token read and refuses it every write with 403', async () => {
    const { accountId } = await service.createAccount();
    assert.equal((await admin('GET', `/accounts/${accountId}`, reader)).status, 200);
    for (const [method, path, json] of [
      ['POST', '/accounts', { name: 'X', email: 'x@example.com' }],
      ['POST', `/accounts/${accountId}/suspension`, { reason: 'r' }],
      ['DELETE', `/accounts/${accountId}/add-ons/channel_list`, undefined],
      ['POST', '/dead-letters/1/replay', undefined],
    ] as const) {
      const response = await admin(method, path, reader, json);
      assert.equal(response.status, 403, `${method} ${path}`);
      assert.match(response.body.error, /may only read/);
    }
  });

  it('a revoked token answers 401 at once', async () => {
    const operators = service.service.container.resolve(OperatorTokens);
    const issued = await operators.issue('temporary', 'read');
    await service.settle();
    assert.equal((await admin('GET', '/system', issued.token)).status, 200);
    await operators.revoke(issued.tokenId);
    await service.settle();
    assert.equal((await admin('GET', '/system', issued.token)).status, 401);
  });

  it('opens an account whose key works at once, once per Idempotency-Key; the key with another body answers 422', async () => {
    const body = { name: 'Grace Hopper', email: 'grace@example.com', plan: 'starter', addOns: ['channel_list'] };
    const headers = { 'Idempotency-Key': 'signup-42' };
    const first = await admin('POST', '/accounts', writer, body, headers);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const me = await call('GET', '/api/v2/me', { key: first.body.apiKey });
    assert.equal(me.status, 200);
    assert.equal(me.body.plan.id, 'starter');
    const again = await admin('POST', '/accounts', writer, body, headers);
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body, 'the same account and key, not a second account');
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const other = await admin('POST', '/accounts', writer, { ...body, email: 'other@example.com' }, headers);
    assert.equal(other.status, 422);
    const found = await admin('GET', '/accounts?q=GRACE@example', reader);
    assert.equal(found.body.total, 1, 'one account opened, whatever the retries');
  });

  it('changes plan, add-ons and grants, answering the account as it is after; every event names the token', async () => {
    const { accountId } = await service.createAccount({ planId: 'starter' });
    let response = await admin('POST', `/accounts/${accountId}/plan`, writer, { plan: 'growth' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.plan.id, 'growth');
    response = await admin('POST', `/accounts/${accountId}/add-ons/client_download`, writer);
    assert.deepEqual(response.body.addOns, ['client_download']);
    response = await admin('POST', `/accounts/${accountId}/grants`, writer, {
      feature: 'info',
      units: 7,
      reason: 'sorry',
    });
    assert.equal(response.body.balances.info.granted, 20_000 + 7);
    response = await admin('POST', `/accounts/${accountId}/cancellation`, writer);
    assert.equal(typeof response.body.plan.canceledAt, 'number');
    response = await admin('DELETE', `/accounts/${accountId}/add-ons/client_download`, writer);
    assert.deepEqual(response.body.addOns, []);
    const events = await service.service.container.resolve(TOKENS.eventStore).readStream(`account-${accountId}`);
    const byOperator = events.filter((event) => event.metadata.actor === `operator:${writerId}`).map((e) => e.type);
    assert.deepEqual(byOperator, [
      'PlanChanged',
      'AddOnEnabled',
      'ExtraUnitsGranted',
      'PlanCancellationScheduled',
      'AddOnDisabled',
    ]);
  });

  it('a grant retried under its Idempotency-Key is granted once', async () => {
    const { accountId } = await service.createAccount({ planId: 'starter' });
    const grant = () =>
      admin(
        'POST',
        `/accounts/${accountId}/grants`,
        writer,
        { feature: 'info', units: 5 },
        { 'Idempotency-Key': 'g-1' },
      );
    const answers = await Promise.all([grant(), grant(), grant()]);
    for (const answer of answers) assert.ok([200, 409].includes(answer.status), JSON.stringify(answer.body));
    await service.settle();
    const account = await admin('GET', `/accounts/${accountId}`, reader);
    assert.equal(account.body.balances.info.granted, 2_000 + 5);
    assert.equal((await grant()).body.balances.info.granted, 2_000 + 5);
  });

  it('suspends an account: its keys answer 403 with the reason everywhere until reactivated; closing is final', async () => {
    const { accountId, apiKey } = await service.createAccount({ planId: 'starter' });
    const suspended = await admin('POST', `/accounts/${accountId}/suspension`, writer, { reason: 'unpaid invoice' });
    assert.equal(suspended.body.status, 'suspended');
    assert.equal(suspended.body.suspension.reason, 'unpaid invoice');
    // Key lookups see the suspension once it is answered; a process's cached lookup goes with the same commit's notice.
    const refusedWithin = (what: string) =>
      waitFor(what, async () => (await call('GET', '/api/v2/me', { key: apiKey })).status === 403, 5_000);
    await refusedWithin('the suspension refused');
    for (const [method, path] of [
      ['GET', '/api/v2/me'],
      ['GET', '/v2/downloads'],
      ['POST', '/api/v2/download'],
      ['GET', '/API/V1/me/keys'],
    ] as const) {
      const response = await call(method, path, { key: apiKey, json: method === 'POST' ? {} : undefined });
      assert.equal(response.status, 403, `${method} ${path}: ${JSON.stringify(response.body)}`);
      assert.match(response.body.error, /suspended: unpaid invoice/);
    }
    const listed = await admin('GET', '/accounts?status=suspended', reader);
    assert.ok(listed.body.accounts.some((account: { accountId: string }) => account.accountId === accountId));
    await admin('DELETE', `/accounts/${accountId}/suspension`, writer);
    assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 200);
    const closed = await admin('POST', `/accounts/${accountId}/closure`, writer);
    assert.equal(closed.body.status, 'closed');
    await refusedWithin('the closure refused');
    assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).body.error, 'This account is closed');
    assert.equal((await admin('DELETE', `/accounts/${accountId}/suspension`, writer)).status, 409);
    assert.equal((await admin('POST', `/accounts/${accountId}/plan`, writer, { plan: 'scale' })).status, 409);
  });

  it('issues and revokes an account’s keys, and answers 404 for an unknown account on every route', async () => {
    const { accountId } = await service.createAccount();
    const issued = await admin('POST', `/accounts/${accountId}/keys`, writer, { name: 'ci' });
    assert.equal(issued.status, 201);
    assert.equal((await call('GET', '/api/v2/me', { key: issued.body.apiKey })).status, 200);
    const revoked = await admin('DELETE', `/accounts/${accountId}/keys/${issued.body.keyId}`, writer);
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.keys.find((key: { keyId: string }) => key.keyId === issued.body.keyId).revokedAt);
    // The answer waits for key lookups to see the revocation; the API process drops its cached lookup on the notice.
    await waitFor(
      'the revoked key refused',
      async () => (await call('GET', '/api/v2/me', { key: issued.body.apiKey })).status === 401,
    );
    for (const [method, path] of [
      ['GET', ''],
      ['GET', '/statement'],
      ['GET', '/jobs'],
      ['POST', '/cancellation'],
      ['POST', '/closure'],
    ] as const) {
      const response = await admin(method, `/accounts/no-such-account${path}`, writer);
      assert.equal(response.status, 404, `${method} ${path}: ${JSON.stringify(response.body)}`);
    }
  });

  it('answers 400 naming the field for a bad body or query', async () => {
    const { accountId } = await service.createAccount();
    for (const [method, path, json, field] of [
      ['POST', '/accounts', { name: 'A', email: 'not-an-email' }, /email/],
      ['POST', '/accounts', { name: 'A', email: 'a@example.com', plan: 'gold' }, /plan/],
      ['POST', `/accounts/${accountId}/grants`, { feature: 'info', units: -1 }, /units/],
      ['POST', `/accounts/${accountId}/suspension`, {}, /reason/],
      ['POST', `/accounts/${accountId}/closure`, { erase: 'yes' }, /erase/],
      ['POST', `/accounts/${accountId}/closure`, { erase: true, everything: true }, /everything/],
      ['POST', `/accounts/${accountId}/closure`, [true], /request body/],
      ['GET', '/accounts?sort=random', undefined, /sort/],
      ['GET', '/accounts?cursor=bogus', undefined, /cursor/],
    ] as const) {
      const response = await admin(method, path, writer, json);
      assert.equal(response.status, 400, `${method} ${path}: ${JSON.stringify(response.body)}`);
      assert.match(response.body.error, field);
    }
  });

  it('searches by text, plan and status, sorts by usage, and pages', async () => {
    const tag = `pager${Date.now()}`;
    for (let index = 0; index < 3; index += 1)
      await service.createAccount({ planId: 'scale', name: `${tag} ${index}`, email: `${tag}${index}@example.com` });
    const first = await admin('GET', `/accounts?q=${tag}&plan=scale&limit=2`, reader);
    assert.equal(first.body.total, 3);
    assert.deepEqual(
      first.body.accounts.map((account: { name: string }) => account.name),
      [`${tag} 0`, `${tag} 1`],
    );
    const second = await admin('GET', `/accounts?q=${tag}&limit=2&cursor=${first.body.nextCursor}`, reader);
    assert.deepEqual(
      second.body.accounts.map((account: { name: string }) => account.name),
      [`${tag} 2`],
    );
    assert.equal(second.body.nextCursor, null);
    assert.equal((await admin('GET', `/accounts?q=${tag}&plan=free`, reader)).body.total, 0);
    assert.equal((await admin('GET', '/accounts?q=%25', reader)).body.total, 0, 'a % is matched as itself');
  });

  it('shows the queue, the processes, and replays a dead letter once', async () => {
    const db = service.service.container.resolve<Knex>(TOKENS.database);
    const system = await admin('GET', '/system', reader);
    assert.equal(system.status, 200, JSON.stringify(system.body));
    assert.equal(system.body.queue.kind, 'jetstream');
    assert.ok(system.body.processes.some((process: { role: string }) => process.role === 'api'));
    assert.ok(system.body.processes.some((process: { role: string }) => process.role === 'projector'));
    await ensureDeadLetterTable(db);
    const subject = workSubject(service.config, 'download');
    const [{ id }] = await db('dead_letters')
      .insert({
        reason: 'max_deliveries',
        stream: 'test',
        consumer: 'c',
        stream_seq: 1,
        subject,
        body: '{"jobId":"j-1"}',
      })
      .returning('id');
    const listed = await admin('GET', '/dead-letters', reader);
    assert.equal(listed.body.deadLetters[0].id, String(id));
    assert.deepEqual(listed.body.deadLetters[0].body, { jobId: 'j-1' });
    const replayed = await admin('POST', `/dead-letters/${id}/replay`, writer);
    assert.equal(replayed.status, 200, JSON.stringify(replayed.body));
    await waitFor('the replayed message waits on its subject', async () => {
      const depth = (await admin('GET', '/system', reader)).body.queue.subjects;
      return depth.some(
        (entry: { subject: string; waiting: number }) => entry.subject === subject && entry.waiting > 0,
      );
    });
    assert.equal((await admin('POST', `/dead-letters/${id}/replay`, writer)).status, 409);
    assert.equal((await admin('POST', '/dead-letters/999999/replay', writer)).status, 404);
  });
});
