import assert from 'node:assert/strict';
import type { Context } from 'koa';
import type { Logger } from '../../../../application/ports/logger.js';
import { requestLogging } from '../../../../infrastructure/http/middleware/request-logging.js';

describe('request logging', () => {
  const lines: Array<Record<string, unknown>> = [];
  const logger: Logger = { info: (fields) => void lines.push(fields), warn() {}, error() {}, child: () => logger };
  const request = (status: number) =>
    ({ method: 'GET', path: '/api/v2/download/x', status, state: {} }) as unknown as Context;

  beforeEach(() => (lines.length = 0));

  it('logs every n-th ordinary request, saying which share it stands for', async () => {
    const log = requestLogging(logger, 10);
    for (let i = 0; i < 30; i += 1) await log(request(200), async () => undefined);
    assert.equal(lines.length, 3);
    assert.equal(lines[0].samplePercent, 10);
  });

  it('always logs failed requests', async () => {
    const log = requestLogging(logger, 0);
    await log(request(200), async () => undefined);
    await log(request(503), async () => undefined);
    assert.deepEqual(
      lines.map((line) => line.status),
      [503],
    );
  });

  it('logs every request at 100 percent', async () => {
    const log = requestLogging(logger, 100);
    for (let i = 0; i < 5; i += 1) await log(request(404), async () => undefined);
    assert.equal(lines.length, 5);
  });
});
