import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { NatsConnection } from 'nats';
import type { Logger } from '../../../application/ports/logger.js';
import { connectToNats } from '../../../infrastructure/nats/connection.js';
import { natsBroadcast } from '../../../infrastructure/nats/nats-broadcast.js';
import { BroadcastJobCancellations } from '../../../infrastructure/work-queue/broadcast-job-cancellations.js';
import { type TcpProxy, startTcpProxy } from '../../support/tcp-proxy.js';

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };

/** Settles within `ms` or fails the test, rather than letting it hang. */
async function settlesWithin<T>(work: Promise<T>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const outcome = await Promise.race([
    work.then(
      () => 'settled',
      () => 'settled',
    ),
    late,
  ]);
  clearTimeout(timer);
  assert.equal(outcome, 'settled', `${what} did not settle within ${ms} ms`);
}

async function statusSeen(nats: NatsConnection, type: string): Promise<void> {
  for await (const status of nats.status()) if (status.type === type) return;
}

describe('NATS broadcasts while the connection is down', () => {
  const subject = `BCTEST_${randomBytes(4).toString('hex')}.cancellations`;
  let proxy: TcpProxy;
  let nats: NatsConnection;

  beforeEach(async () => {
    proxy = await startTcpProxy('127.0.0.1', 4222);
    nats = await connectToNats({ url: `nats://127.0.0.1:${proxy.port}`, name: 'nats-broadcast.spec' });
  });
  afterEach(async () => {
    proxy.restore();
    await nats.close().catch(() => undefined);
    await proxy.close();
  });

  it('gives up waiting for the server after the flush timeout while the client reconnects, and the announcement only warns', async () => {
    const warnings: string[] = [];
    const logger = { ...silent, warn: (_fields: unknown, message: string) => void warnings.push(message) } as Logger;
    const cancellations = new BroadcastJobCancellations(natsBroadcast(nats, subject, { flushTimeoutMs: 300 }), logger);
    await cancellations.announce('job-before');
    assert.deepEqual(warnings, [], 'with the server there, the announcement is confirmed');
    const disconnected = statusSeen(nats, 'disconnect');
    proxy.cut();
    await disconnected;
    await settlesWithin(cancellations.announce('job-during'), 15_000, 'an announcement during a reconnect');
    assert.equal(warnings.length, 1);
  });

  it('does not hang on a connection that went silent', async () => {
    proxy.freeze();
    const publish = natsBroadcast(nats, subject, { flushTimeoutMs: 300 }).publish({ jobId: 'job-frozen' });
    await settlesWithin(publish, 15_000, 'a publish on a silent connection');
    await assert.rejects(publish, /did not confirm/);
  });
});
