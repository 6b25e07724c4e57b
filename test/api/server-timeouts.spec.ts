import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { type TestService, startTestService } from '../support/test-service.js';

/** Sends `chunks` and then nothing; resolves with how long the server kept the connection open, and what it said. */
function stallAfter(
  url: string,
  chunks: string[],
  giveUpMs: number,
): Promise<{ closedAfterMs: number | null; answer: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    let answer = '';
    const socket = connect(Number(port), hostname, () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closedAfterMs: null, answer });
    }, giveUpMs);
    socket.on('data', (data) => {
      answer += data.toString('utf8');
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closedAfterMs: Date.now() - started, answer });
    });
    socket.on('error', () => undefined);
  });
}

describe('HTTP: slow clients are cut off', function () {
  this.timeout(60_000);
  let service: TestService;

  before(async () => {
    service = await startTestService({
      roles: ['api'],
      label: 'http_timeouts',
      env: { HTTP_REQUEST_TIMEOUT_MS: '2000', HTTP_HEADERS_TIMEOUT_MS: '1000' },
    });
  });
  after(async () => service?.stop());

  it('answers 408 and closes when the headers never finish', async () => {
    const result = await stallAfter(service.url, ['GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: '], 8_000);
    // Closed within the 8 s watched, where the default headers timeout (10 s) would still be waiting: how soon depends on the machine.
    assert.notEqual(result.closedAfterMs, null, 'the connection was still open');
    assert.match(result.answer, /^HTTP\/1\.1 408/);
    assert.match(result.answer, /\{"error":"The request was not received in time"\}$/);
  });

  it('answers 408 and closes when a body never finishes, even without a key on an unknown path', async () => {
    for (const path of ['/api/v2/download', '/V2/nowhere', '/nowhere']) {
      const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"url":`;
      const result = await stallAfter(service.url, [head], 8_000);
      // Closed within the 8 s watched, where the default request timeout (30 s) would still be waiting.
      assert.notEqual(result.closedAfterMs, null, `${path}: the connection was still open`);
    }
  });
});
