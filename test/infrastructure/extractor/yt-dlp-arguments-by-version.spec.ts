import assert from 'node:assert/strict';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { loadConfig } from '../../../infrastructure/config/config.js';
import { createYtDlpExtractor } from '../../../infrastructure/extractor/create-yt-dlp-extractor.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';

/** A yt-dlp stand-in of the given version whose `-J` reports, as the title, the arguments it was given. */
async function echoingYtDlp(version: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'echo-yt-dlp-'));
  const program = path.join(dir, 'yt-dlp');
  await writeFile(
    program,
    `#!/bin/sh\nif [ "$1" = "--version" ]; then echo ${version}; exit 0; fi\nprintf '{"id": "x", "title": "%s", "duration": 5}' "$*"\n`,
  );
  await chmod(program, 0o755);
  return program;
}

describe('the options each yt-dlp version gets, as the service composes them', () => {
  async function argumentsGiven(version: string): Promise<string> {
    const config = loadConfig({ YT_DLP_PATH: await echoingYtDlp(version), YT_DLP_EXTRACTOR_ARGS: 'youtube:player_client=default,mweb' });
    const setup = createYtDlpExtractor(config, createLogger('silent'), new Registry());
    await setup.detected;
    return (await setup.extractor.probe('https://www.youtube.com/watch?v=abc')).title;
  }

  it('passes --js-runtimes with this Node to a version that understands it, and the extractor arguments to every version', async () => {
    const current = await argumentsGiven('2026.08.19');
    assert.ok(current.includes(`--js-runtimes node:${process.execPath}`), current);
    assert.ok(current.includes('--extractor-args youtube:player_client=default,mweb'), current);
    const old = await argumentsGiven('2023.03.04');
    assert.ok(!old.includes('--js-runtimes'), old);
    assert.ok(old.includes('--extractor-args youtube:player_client=default,mweb'), old);
  });
});
