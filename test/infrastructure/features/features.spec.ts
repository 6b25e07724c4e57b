import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../../infrastructure/config/config.js';
import { ALL_CONFIG_SECTIONS, FEATURES, readFeatureSettings } from '../../../infrastructure/features/features.js';
import { eventStreamsSection } from '../../../infrastructure/features/job-watching/event-streams-config.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';
import { startService } from '../../../infrastructure/service.js';

describe('the configuration sections that features declare', () => {
  it('follow the shared sections in the README table, each once', () => {
    const declared = FEATURES.flatMap((feature) => (feature.config === undefined ? [] : [feature.config]));
    assert.ok(declared.includes(eventStreamsSection), 'job watching declares the event streams section');
    assert.deepEqual(ALL_CONFIG_SECTIONS.slice(-declared.length), declared);
    assert.equal(new Set(ALL_CONFIG_SECTIONS).size, ALL_CONFIG_SECTIONS.length);
  });

  it('are read from the same environment as the shared ones, once', () => {
    const config = loadConfig({ EVENT_STREAMS_PER_KEY: '7' });
    const settings = config.features.of(eventStreamsSection);
    assert.equal(settings.perKey, 7);
    assert.equal(settings.max, 2_000, 'the default of a variable left unset');
    assert.equal(config.features.of(eventStreamsSection), settings);
  });

  it('stop the service before anything starts when a value is bad, naming the variable', async () => {
    const dataDir = path.join(tmpdir(), `feature-config-${process.pid}-${Date.now()}`);
    const config = loadConfig({ EVENT_STREAMS_PER_KEY: '0', DATA_DIR: dataDir });
    assert.throws(() => readFeatureSettings(config), ConfigError);
    await assert.rejects(startService(config, new Set(['api']), createLogger('silent')), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /EVENT_STREAMS_PER_KEY/);
      return true;
    });
    const opened = existsSync(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    assert.ok(!opened, 'nothing opened: no data directory made');
  });
});
