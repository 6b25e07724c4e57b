import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../infrastructure/config/config.js';
import { renderConfigTable, withConfigTable } from '../../../infrastructure/config/config-table.js';
import { ALL_CONFIG_SECTIONS, readFeatureSettings } from '../../../infrastructure/features/features.js';

const sections = ALL_CONFIG_SECTIONS;
const declared = sections.flatMap((section) => section.variables.map((variable) => variable.name));

/** The variables loadConfig looks at for this environment, whatever their values. */
function namesRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const config = loadConfig(
    new Proxy(env, {
      get: (target, name) => {
        if (typeof name === 'string') read.add(name);
        return Reflect.get(target, name);
      },
    }),
  );
  readFeatureSettings(config);
  return read;
}

describe('the README configuration table', () => {
  it('is what the config sections generate', () => {
    const readmePath = path.resolve(__dirname, '../../../../README.md');
    const readme = readFileSync(readmePath, 'utf8');
    const generated = withConfigTable(readme, renderConfigTable(sections));
    assert.ok(
      readme === generated,
      'README.md configuration table differs from infrastructure/config/sections: run npm run docs:config',
    );
  });

  it('documents each variable once, and every variable the configuration reads', () => {
    assert.deepEqual(
      declared.filter((name, index) => declared.indexOf(name) !== index),
      [],
      'declared in two places',
    );
    // The S3 settings are read only when FILE_STORE selects the bucket.
    const read = namesRead({ FILE_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000' });
    assert.deepEqual(
      [...read].filter((name) => !declared.includes(name)).sort(),
      [],
      'read but not declared in a section',
    );
    assert.deepEqual(declared.filter((name) => !read.has(name)).sort(), [], 'declared but never read');
  });
});
