import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from '../../../application/ports/logger.js';
import { Container } from '../../../infrastructure/composition/container.js';
import {
  ADMIN_ENDPOINT_FILE,
  type AdminEndpointAddress,
  startAdminEndpoint,
} from '../../../infrastructure/admin/admin-endpoint.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

describe('embedded admin endpoint', () => {
  let directory: string;
  let endpoint: { stop(): Promise<void> };
  let address: AdminEndpointAddress;

  before(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'vds-admin-'));
    endpoint = await startAdminEndpoint({ directory, container: Container.create(), logger: silent });
    address = JSON.parse(await readFile(path.join(directory, ADMIN_ENDPOINT_FILE), 'utf8'));
  });
  after(async () => {
    await endpoint?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  const post = (body: unknown, token: string | null = address.token, route = '/cli') =>
    fetch(`${address.url}${route}`, {
      method: 'POST',
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });

  it('listens on loopback and writes its address and token for the owner only', async () => {
    assert.match(address.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(address.pid, process.pid);
    assert.equal((await stat(path.join(directory, ADMIN_ENDPOINT_FILE))).mode & 0o777, 0o600);
  });

  it('refuses a request without the token, or with another one', async () => {
    assert.equal((await post({ tool: 'admin', args: [] }, null)).status, 401);
    assert.equal((await post({ tool: 'admin', args: [] }, 'f'.repeat(64))).status, 401);
  });

  it('answers 400 naming the field for an unknown tool or bad arguments, and 404 elsewhere', async () => {
    const unknown = await post({ tool: 'shell', args: [] });
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as { error: string }).error, /tool must be one of: admin, audit/);
    const badArgs = await post({ tool: 'admin', args: [1] });
    assert.equal(badArgs.status, 400);
    assert.match(((await badArgs.json()) as { error: string }).error, /args/);
    assert.equal((await post({}, address.token, '/other')).status, 404);
  });

  it('runs a command and relays its exit code and output', async () => {
    const response = await post({ tool: 'admin', args: [] });
    assert.equal(response.status, 200);
    const answer = (await response.json()) as { exitCode: number; stdout: string; stderr: string };
    assert.equal(answer.exitCode, 2);
    assert.match(answer.stderr, /Usage: npm run --silent admin/);
  });

  it('removes its file when stopped', async () => {
    await endpoint.stop();
    await assert.rejects(stat(path.join(directory, ADMIN_ENDPOINT_FILE)));
    endpoint = { stop: async () => undefined };
  });
});
