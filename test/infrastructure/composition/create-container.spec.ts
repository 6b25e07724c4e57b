import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Clock } from '../../../application/ports/clock.js';
import { ContainerSealedError } from '../../../infrastructure/composition/container.js';
import { createContainer } from '../../../infrastructure/composition/create-container.js';
import { TOKENS } from '../../../infrastructure/composition/tokens.js';
import { ROLES, loadConfig } from '../../../infrastructure/config/config.js';
import { BroadcastProgressReports } from '../../../infrastructure/live/broadcast-progress-reports.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';
import { ScriptedExtractor, answerAtOnce } from '../../support/scripted-extractor.js';
import { type TestService, startTestService } from '../../support/test-service.js';
import { testEmbeddedTemplateDir } from '../../support/embedded-template.js';

const aClock: Clock = { now: () => new Date() };

describe('the composition root', function () {
  this.timeout(120_000);

  describe('composed for every role, in embedded mode', () => {
    let directory: string;
    before(async () => {
      directory = await mkdtemp(path.join(tmpdir(), 'vds-composition-'));
    });
    after(async () => {
      await rm(directory, { recursive: true, force: true });
    });

    it('chooses the work queue, its broadcasts and the request-rate store before any role starts, then seals', async () => {
      const config = loadConfig({
        DATA_DIR: directory,
        EMBEDDED_TEMPLATE_DIR: testEmbeddedTemplateDir(),
        LOG_LEVEL: 'silent',
      });
      const { container, close } = await createContainer(config, createLogger('silent'), {
        overrides: { extractor: new ScriptedExtractor({ probe: answerAtOnce() }) },
        roles: new Set(ROLES),
      });
      try {
        assert.equal(container.resolve(TOKENS.workQueue).kind, 'in-process');
        assert.ok(container.resolve(TOKENS.progressReports) instanceof BroadcastProgressReports);
        assert.equal(typeof container.resolve(TOKENS.jobCancellations).announce, 'function');
        assert.equal((await container.resolve(TOKENS.rateLimitStore).consume('key', 10)).allowed, true);
        assert.throws(() => container.value(TOKENS.clock, aClock), ContainerSealedError);
      } finally {
        await close();
      }
    });

    it('opens no work queue for a process that runs no role (the command-line tools), and seals all the same', async () => {
      const config = loadConfig({
        DATA_DIR: directory,
        EMBEDDED_TEMPLATE_DIR: testEmbeddedTemplateDir(),
        LOG_LEVEL: 'silent',
      });
      const { container, close } = await createContainer(config, createLogger('silent'));
      try {
        assert.throws(() => container.resolve(TOKENS.workQueue));
        assert.throws(() => container.resolve(TOKENS.rateLimitStore));
        assert.throws(() => container.value(TOKENS.clock, aClock), ContainerSealedError);
      } finally {
        await close();
      }
    });
  });

  describe('a service running every role', () => {
    let service: TestService;
    before(async () => {
      // Started at all only if no role registers or replaces anything: the sealed container throws at the first try.
      service = await startTestService({
        embedded: true,
        roles: [...ROLES],
        overrides: { extractor: new ScriptedExtractor({ probe: answerAtOnce() }) },
      });
    });
    after(async () => {
      await service?.stop();
    });

    it('starts on the container as composed, which refuses any registration after start', () => {
      assert.throws(() => service.service.container.value(TOKENS.clock, aClock), ContainerSealedError);
    });
  });
});
