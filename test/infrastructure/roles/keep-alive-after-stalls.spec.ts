import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { type Socket, connect } from 'node:net';
import { closeServer, listen } from '../../../infrastructure/roles/http-server.js';

const REQUEST = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';
const KEEP_ALIVE_MS = 300;
/** Node closes an idle connection this long after the keep-alive timeout it announces. */
const NODE_GRACE_MS = 1_000;
/** How long past Node's close point the server here keeps an idle connection for a client whose timer runs late. */
const LATE_CLIENT_GRACE_MS = 1_500;

/** Holds the event loop, as a long synchronous stretch or a starved machine does. */
function holdEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // Busy on purpose: no timer, no socket is served meanwhile.
  }
}

/** Resolves with each complete answer on a keep-alive connection, or with how the connection ended. */
function answers(socket: Socket): { next(): Promise<string> } {
  let received = '';
  const waiting: Array<(answer: string) => void> = [];
  const settle = (answer: string) => waiting.shift()?.(answer);
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    const end = received.indexOf('ok');
    if (end === -1) return;
    const answer = received.slice(0, end + 2);
    received = received.slice(end + 2);
    settle(answer);
  });
  socket.on('error', (error: NodeJS.ErrnoException) => settle(`error ${error.code}`));
  socket.on('close', () => settle('closed'));
  return { next: () => new Promise((resolve) => waiting.push(resolve)) };
}

describe('HTTP server: keep-alive connections and a held-up event loop', () => {
  let server: Server;
  let sockets: Socket[] = [];

  beforeEach(async () => {
    server = await listen((_request, response) => response.end('ok'), '127.0.0.1', 0, {
      requestTimeout: 30_000,
      headersTimeout: 10_000,
      lateClientGraceMs: LATE_CLIENT_GRACE_MS,
    });
    server.keepAliveTimeout = KEEP_ALIVE_MS;
  });
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    sockets = [];
    await closeServer(server, 1_000);
  });

  const open = async () => {
    const { port } = server.address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const stream = answers(socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    return { socket, stream };
  };

  it('answers a request sent on an idle connection just before the loop was held past the keep-alive timeout', async () => {
    const { socket, stream } = await open();
    socket.write(REQUEST);
    assert.match(await stream.next(), /^HTTP\/1\.1 200 .*ok$/s);
    const second = stream.next();
    // The request reaches the server's socket at once; the server reads it only after the hold, when the timeout is due.
    socket.write(REQUEST);
    holdEventLoop(KEEP_ALIVE_MS + NODE_GRACE_MS + 500);
    const answer = await second;
    assert.match(answer, /^HTTP\/1\.1 200 .*ok$/s, `the request that had arrived got ${answer}`);
  });

  it('answers a client whose idle timer ran late and sent its next request just after the announced timeout', async () => {
    const { socket, stream } = await open();
    socket.write(REQUEST);
    assert.match(await stream.next(), /^HTTP\/1\.1 200 .*keep-alive.*ok$/is);
    const second = stream.next();
    // Past the announced timeout and Node's own second, but within the grace.
    setTimeout(() => socket.write(REQUEST), KEEP_ALIVE_MS + NODE_GRACE_MS + 500);
    const answer = await second;
    assert.match(answer, /^HTTP\/1\.1 200 .*ok$/s, `the late request got ${answer}`);
  });

  it('still closes a connection that stays idle past the keep-alive timeout', async () => {
    const { socket, stream } = await open();
    socket.write(REQUEST);
    assert.match(await stream.next(), /^HTTP\/1\.1 200 /);
    const started = Date.now();
    assert.equal(await stream.next(), 'closed');
    const idleMs = Date.now() - started;
    assert.ok(idleMs >= KEEP_ALIVE_MS + LATE_CLIENT_GRACE_MS, `closed after ${idleMs} ms, before the grace ran out`);
    assert.ok(idleMs < KEEP_ALIVE_MS + NODE_GRACE_MS + LATE_CLIENT_GRACE_MS + 5_000, 'closed, not left open for good');
  });
});
