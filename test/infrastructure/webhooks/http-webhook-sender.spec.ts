import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { WebhookRequest } from '../../../application/ports/webhook-sender.js';
import type { ResolveHost } from '../../../infrastructure/webhooks/checked-address-lookup.js';
import { HttpWebhookSender } from '../../../infrastructure/webhooks/http-webhook-sender.js';
import { verifyWebhookSignature } from '../../../infrastructure/webhooks/verify-webhook-signature.js';
import { SystemClock } from '../../../infrastructure/system/system-clock.js';
import { type WebhookReceiver, startWebhookReceiver } from '../../support/webhook-receiver.js';

const apiKey = 'vds_test-key-for-signatures';

/** Public-looking names pointed wherever a test needs; anything else does not resolve. */
function resolverFor(table: Record<string, string[]>): ResolveHost {
  return async (hostname) => {
    const addresses = table[hostname];
    if (addresses === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('webhook sender (real HTTP on loopback)', function () {
  this.timeout(20_000);
  const receivers: WebhookReceiver[] = [];
  const receiver = async (answer?: Parameters<typeof startWebhookReceiver>[0]) => {
    const started = await startWebhookReceiver(answer);
    receivers.push(started);
    return started;
  };
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.stop()));
  });

  const sender = (options: { allowHosts?: string[]; resolve?: ResolveHost } = {}) =>
    new HttpWebhookSender({
      allowHosts: options.allowHosts ?? ['127.0.0.1'],
      resolve: options.resolve ?? resolverFor({}),
      clock: new SystemClock(),
    });
  const request = (url: string, overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({
    url,
    event: 'download.completed',
    jobId: 'job-1',
    attempt: 3,
    body: '{"jobId":"job-1","status":"COMPLETED","title":"Café ☕"}',
    signingKey: apiKey,
    timeoutMs: 2_000,
    ...overrides,
  });

  it('POSTs the exact body with the headers and a signature the exported verifyWebhookSignature accepts; a 204 is an answer', async () => {
    const target = await receiver(() => ({ status: 204 }));
    const response = await sender().send(request(target.url()));
    assert.equal(response.kind, 'response');
    assert.equal(response.kind === 'response' && response.statusCode, 204);
    const [received] = await target.waitFor(1);
    assert.equal(received.rawBody.toString('utf8'), request('').body);
    assert.equal(received.headers['content-type'], 'application/json');
    assert.equal(received.headers['x-service-event'], 'download.completed');
    assert.equal(received.headers['x-service-job-id'], 'job-1');
    assert.equal(received.headers['x-service-attempt'], '3');
    assert.ok(!JSON.stringify(received.headers).includes(apiKey), 'the key itself is never sent');
    const signature = received.headers['x-service-signature'] as string;
    assert.match(signature, /^t=\d+,v1=[0-9a-f]{64}$/);
    assert.deepEqual(verifyWebhookSignature(received.rawBody, signature, apiKey), {
      ok: true,
      timestamp: Number(/t=(\d+)/.exec(signature)?.[1]),
    });
    assert.equal(verifyWebhookSignature(received.rawBody, signature, 'vds_another-key').ok, false);
  });

  it('never follows a redirect: a 302 is the answer and its target sees nothing', async () => {
    const target = await receiver();
    const redirecting = await receiver(() => ({ status: 302, headers: { Location: target.url('/elsewhere') } }));
    const response = await sender().send(request(redirecting.url()));
    assert.deepEqual(response.kind === 'response' && response.statusCode, 302);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(target.received.length, 0);
  });

  it('a receiver slower than the limit is a timeout', async () => {
    const slow = await receiver(() => ({ status: 200, delayMs: 1_500 }));
    const response = await sender().send(request(slow.url(), { timeoutMs: 500 }));
    assert.equal(response.kind === 'error' && response.errorClass, 'timeout');
    // A timeout, not the answer the receiver sends later, however late the machine fires the timer.
    assert.ok(response.durationMs >= 450, `took ${response.durationMs} ms`);
  });

  it('a closed port is a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const response = await sender().send(request(`http://127.0.0.1:${port}/hook`));
    assert.equal(response.kind === 'error' && response.errorClass, 'connection_refused');
  });

  it('refuses a name that resolves to loopback at delivery, while the allowlisted receiver is reached', async () => {
    const target = await receiver();
    const resolve = resolverFor({
      'hooks.example.com': ['127.0.0.1'],
      'mixed.example.com': ['93.184.215.14', '10.0.0.7'],
    });
    const send = sender({ allowHosts: ['127.0.0.1'], resolve });

    const refused = await send.send(request(`http://hooks.example.com:${target.port}/hook`));
    assert.equal(refused.kind === 'error' && refused.errorClass, 'address_refused');
    assert.match(refused.kind === 'error' ? refused.detail : '', /hooks\.example\.com resolves to 127\.0\.0\.1/);
    // Any non-public address among the answers refuses the attempt, even next to a public one.
    const mixed = await send.send(request(`http://mixed.example.com:${target.port}/hook`));
    assert.equal(mixed.kind === 'error' && mixed.errorClass, 'address_refused');
    assert.equal(target.received.length, 0);

    const accepted = await send.send(request(target.url()));
    assert.equal(accepted.kind === 'response' && accepted.statusCode, 200);
    assert.equal(target.received.length, 1);
  });

  it('an allowlisted name may resolve anywhere; the allowlist is the only exemption', async () => {
    const target = await receiver();
    const resolve = resolverFor({ 'receiver.test.example': ['127.0.0.1'] });
    const allowed = await sender({ allowHosts: ['receiver.test.example'], resolve }).send(
      request(`http://receiver.test.example:${target.port}/hook`),
    );
    assert.equal(allowed.kind === 'response' && allowed.statusCode, 200);
    const notAllowed = await sender({ allowHosts: [], resolve }).send(request(target.url()));
    assert.equal(notAllowed.kind === 'error' && notAllowed.errorClass, 'address_refused');
  });

  it('refuses literal non-public addresses in every form without dialling (no lookup runs for them)', async () => {
    let lookups = 0;
    const counting: ResolveHost = async () => {
      lookups += 1;
      return [{ address: '93.184.215.14', family: 4 }];
    };
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://[::1]:9/hook',
      'http://[::ffff:127.0.0.1]:9/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://0x7f.1/hook',
      'http://[fd00:ec2::254]/',
      'http://192.0.2.10/hook',
      'http://100.64.1.1/',
    ]) {
      const response = await sender({ allowHosts: [], resolve: counting }).send(request(url));
      assert.equal(response.kind === 'error' && response.errorClass, 'address_refused', url);
    }
    assert.equal(lookups, 0);
  });

  it('dials https through the checked lookup too; a certificate the system does not trust is a TLS failure and no request is made', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'webhook-tls-'));
    let requests = 0;
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    // A throwaway self-signed certificate, made here so no private key is kept in the repository.
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=secure.example.com',
    ]);
    const server = createHttpsServer(
      { key: await readFile(keyFile), cert: await readFile(certFile) },
      (_request, response) => {
        requests += 1;
        response.end();
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const resolve = resolverFor({ 'secure.example.com': ['127.0.0.1'] });
      const viaName = await sender({ allowHosts: ['secure.example.com'], resolve }).send(
        request(`https://secure.example.com:${port}/hook`),
      );
      assert.equal(viaName.kind === 'error' && viaName.errorClass, 'tls', JSON.stringify(viaName));
      const refused = await sender({ allowHosts: [], resolve }).send(
        request(`https://secure.example.com:${port}/hook`),
      );
      assert.equal(refused.kind === 'error' && refused.errorClass, 'address_refused');
      assert.equal(requests, 0);
    } finally {
      server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a name that does not resolve is a DNS failure', async () => {
    const response = await sender({ allowHosts: [] }).send(request('http://nowhere.example.com/hook'));
    assert.equal(response.kind === 'error' && response.errorClass, 'dns');
  });
});
