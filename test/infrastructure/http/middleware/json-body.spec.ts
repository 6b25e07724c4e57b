import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Logger } from '../../../../application/ports/logger.js';
import { errorResponses } from '../../../../infrastructure/http/middleware/error-responses.js';
import { jsonBody } from '../../../../infrastructure/http/middleware/json-body.js';
import { rawRequest } from '../../../support/raw-http.js';

describe('JSON body parsing', () => {
  it('logs one line, without a stack, for a compressed body that does not decode, and answers 400', async () => {
    const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
    const logger: Logger = {
      info: (fields, message) => lines.push({ level: 'info', fields, message }),
      warn: (fields, message) => lines.push({ level: 'warn', fields, message }),
      error: (fields, message) => lines.push({ level: 'error', fields, message }),
      child: () => logger,
    };
    const app = new Koa();
    app.use(errorResponses(logger));
    app.use(jsonBody(65_536, logger));
    app.use((ctx) => {
      ctx.body = { received: ctx.request.body };
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const response = await rawRequest(
        base,
        'POST',
        '/anything',
        { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        '{"plain":"not gzip"}',
      );
      assert.equal(response.status, 400);
      assert.match(response.body.error, /not valid gzip data/);
      assert.equal(lines.length, 1, JSON.stringify(lines));
      assert.equal(lines[0].level, 'warn');
      assert.equal(lines[0].message, 'Request body did not decode');
      assert.equal(lines[0].fields.encoding, 'gzip');
      assert.ok(!JSON.stringify(lines[0]).includes('    at '), 'no stack');

      const fine = await rawRequest(
        base,
        'POST',
        '/anything',
        { 'Content-Type': 'application/json' },
        '{"plain":true}',
      );
      assert.deepEqual(fine.body, { received: { plain: true } });
      assert.equal(lines.length, 1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
