import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';

describe('the buffered logger of the service processes', function () {
  this.timeout(30_000);

  it('writes a lone line out within a few seconds while the process goes on running', async () => {
    const logger = path.resolve('build/infrastructure/observability/create-logger.js');
    const script = `
      const { createLogger } = require(${JSON.stringify(logger)});
      createLogger('info', { buffered: true }).warn({ platform: 'youtube.com' }, 'a lone warning');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      const deadline = Date.now() + 15_000;
      while (!output.includes('a lone warning') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      assert.match(output, /"msg":"a lone warning"/, 'written while the process still runs');
      assert.equal(child.exitCode, null);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
