import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { Registry } from 'prom-client';
import { Container } from '../../../infrastructure/composition/container.js';
import { EXTRACTOR_CAPABILITIES } from '../../../infrastructure/composition/extractor-capabilities.js';
import type { Overrides } from '../../../infrastructure/composition/overrides.js';
import { registerExtractor } from '../../../infrastructure/composition/register-extractor.js';
import { TOKENS } from '../../../infrastructure/composition/tokens.js';
import { loadConfig } from '../../../infrastructure/config/config.js';
import { WarmExtractor } from '../../../infrastructure/extractor/warm/warm-extractor.js';
import { YtDlpExtractor } from '../../../infrastructure/extractor/yt-dlp-extractor.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';
import { ScriptedExtractor, answerAtOnce } from '../../support/scripted-extractor.js';

/** The extractor's registrations alone, on a container with what they resolve besides. */
function composed(env: Record<string, string>, overrides: Overrides = {}) {
  const container = Container.create();
  container.value(TOKENS.metrics, new Registry());
  // Only handed to the extracted-page cache, which reads nothing until a lookup.
  container.value(TOKENS.database, {} as Knex);
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  const extractors = registerExtractor(container, config, createLogger('silent'), overrides);
  return { container, close: () => extractors.close() };
}

/** Which adapter serves each capability, by the capability's method. */
function servers(container: Container): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(EXTRACTOR_CAPABILITIES).map(([method, capability]) => {
      const served = container.resolve<unknown>(capability);
      const kind =
        served instanceof WarmExtractor ? 'warm helpers' : served instanceof YtDlpExtractor ? 'command line' : 'other';
      return [method, kind];
    }),
  );
}

describe('the extractor, one registration per capability', function () {
  this.timeout(30_000);

  it('serves lookups and downloads by the warm helpers, listings and direct links by the command line', async () => {
    const { container, close } = composed({});
    try {
      assert.deepEqual(servers(container), {
        probe: 'warm helpers',
        download: 'warm helpers',
        listChannel: 'command line',
        resolveMediaLinks: 'command line',
      });
    } finally {
      await close();
    }
  });

  it('serves every capability by the command line when no warm helper runs', async () => {
    const { container, close } = composed({ WARM_EXTRACTOR_PROCESSES: '0' });
    try {
      assert.deepEqual(servers(container), {
        probe: 'command line',
        download: 'command line',
        listChannel: 'command line',
        resolveMediaLinks: 'command line',
      });
    } finally {
      await close();
    }
  });

  it('serves from an extractor put in place what it has, refuses by name what it lacks, and runs no yt-dlp', async () => {
    const inPlace = { probe: answerAtOnce({ title: 'in place' }) };
    const { container, close } = composed({}, { extractor: inPlace });
    try {
      assert.equal(container.resolve(TOKENS.extractor.probe), inPlace);
      assert.equal((await container.resolve(TOKENS.extractor.probe).probe('https://x.test/?v=a')).title, 'in place');
      await assert.rejects(
        container.resolve(TOKENS.extractor.listChannel).listChannel('https://x.test/@c', { maxVideos: 1 }),
        /has no listChannel/,
      );
      assert.equal(container.resolve(TOKENS.ytDlp), null);
      assert.equal(container.resolve(TOKENS.warmExtractor), null);
    } finally {
      await close();
    }
  });

  it('gives each capability of the shared scripted double to the use cases that ask for it', async () => {
    const scripted = new ScriptedExtractor({ probe: answerAtOnce() });
    const { container, close } = composed({}, { extractor: scripted });
    try {
      for (const capability of Object.values(EXTRACTOR_CAPABILITIES))
        assert.equal(container.resolve<unknown>(capability), scripted);
      await assert.rejects(
        container
          .resolve(TOKENS.extractor.download)
          .download({ url: 'https://x.test/?v=a', format: 'audio', workDir: '/none' }),
        /download is not scripted in this test/,
      );
    } finally {
      await close();
    }
  });
});
