import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HostsFile, parseHostsFile } from '../../../infrastructure/egress/hosts-file.js';
import { HostLookupError, hostResolver } from '../../../infrastructure/egress/resolve-host.js';
import { type LoopbackDnsServer, closedUdpPort, startLoopbackDnsServer } from '../../support/loopback-dns-server.js';

describe('resolving a target host for the egress proxy', () => {
  let dns: LoopbackDnsServer;
  let dir: string;
  let hosts: HostsFile;

  before(async () => {
    dns = await startLoopbackDnsServer({ 'media.example.com': ['93.184.216.34'], 'slow.invalid': 'silent' });
    dir = await mkdtemp(path.join(tmpdir(), 'resolve-host-'));
    const file = path.join(dir, 'hosts');
    await writeFile(file, '127.0.0.1 localhost\n# a comment\n203.0.113.9  Pinned.Example.com pinned  # why\n');
    hosts = new HostsFile(file);
  });
  after(async () => {
    await dns?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const rejection = async (promise: Promise<unknown>): Promise<HostLookupError> => {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof HostLookupError, String(error));
      return error;
    }
    assert.fail('the lookup succeeded');
  };

  it('asks DNS for both families and answers what came back', async () => {
    const resolve = hostResolver({ servers: [dns.address], hosts });
    assert.deepEqual(await resolve('media.example.com'), ['93.184.216.34']);
    assert.ok(dns.asked.includes('media.example.com'));
  });

  it('reads the hosts file first, and answers localhost with loopback without asking DNS', async () => {
    const resolve = hostResolver({ servers: [dns.address], hosts });
    dns.asked.length = 0;
    assert.deepEqual(await resolve('pinned.example.com.'), ['203.0.113.9']);
    assert.deepEqual(await resolve('localhost'), ['127.0.0.1']);
    assert.deepEqual(await resolve('api.localhost'), ['127.0.0.1', '::1']);
    assert.deepEqual(dns.asked, []);
  });

  it("fails with the resolver's code when a name does not exist, and with a timeout when no server answers", async () => {
    const resolve = hostResolver({ servers: [dns.address], timeoutMs: 200, tries: 1, hosts });
    const missing = await rejection(resolve('gone.invalid'));
    assert.equal(missing.code, 'ENOTFOUND');
    assert.equal(missing.timedOut, false);

    const startedAt = Date.now();
    const silent = await rejection(resolve('slow.invalid'));
    assert.equal(silent.code, 'ETIMEOUT');
    assert.ok(silent.timedOut);
    assert.ok(Date.now() - startedAt < 10_000, 'the lookup was bounded by its timeout');

    const nobody = await rejection(hostResolver({ servers: [await closedUdpPort()], tries: 1, hosts })('a.invalid'));
    assert.equal(nobody.timedOut, false, nobody.code);
  });

  it('reads a hosts file as the system does: comments, aliases, any case', () => {
    assert.deepEqual(
      [...parseHostsFile('# x\n10.0.0.1 a.example b\n::1 a.example\nnot-an-address c\n\n  \n').entries()],
      [
        ['a.example', ['10.0.0.1', '::1']],
        ['b', ['10.0.0.1']],
      ],
    );
  });
});
