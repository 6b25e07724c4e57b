import assert from 'node:assert/strict';
import { ConfigError } from '../../../infrastructure/config/config-error.js';
import { derive, group, when } from '../../../infrastructure/config/compose-settings.js';
import { EnvReader } from '../../../infrastructure/config/env-reader.js';
import { InvalidValue } from '../../../infrastructure/config/invalid-value.js';
import { section } from '../../../infrastructure/config/section.js';
import { choice, integer, list, required, text, variable } from '../../../infrastructure/config/variable.js';

const env = (values: Record<string, string>) => new EnvReader(values);
const names = (setting: { variables: readonly { name: string }[] }) => setting.variables.map(({ name }) => name);

describe('configuration settings from declarations', () => {
  const PORT = integer('PORT', 8080, [0, 65535], 'the port');

  it('reads a variable: its default when unset or blank, else its parsed value or an error naming it', () => {
    assert.equal(PORT.read(env({})), 8080);
    assert.equal(PORT.read(env({ PORT: '  ' })), 8080);
    assert.equal(PORT.read(env({ PORT: ' 90 ' })), 90);
    assert.throws(() => PORT.read(env({ PORT: 'x' })), {
      name: 'ConfigError',
      message: 'Invalid configuration: PORT must be a whole number, got "x"',
    });
    const broken = variable({ name: 'BROKEN', doc: 'd', shownDefault: 'unset', fallback: () => 0, parse: JSON.parse });
    assert.throws(() => broken.read(env({ BROKEN: '{' })), SyntaxError, 'only an InvalidValue is a bad setting');
  });

  it('reads a default from other variables, and a required variable or a list item it refuses names it', () => {
    const base = text('BASE', (values) => `http://localhost:${PORT.read(values)}`, 'the base');
    assert.equal(base.read(env({ PORT: '81' })), 'http://localhost:81');
    assert.throws(() => required('BUCKET', 'is required here', 'a bucket').read(env({})), /BUCKET is required here/);
    const noX = list('ITEMS', ['a'], 'items', (item) => {
      if (item === 'x') throw new InvalidValue('has an x');
    });
    assert.deepEqual(noX.read(env({ ITEMS: 'a, b' })), ['a', 'b']);
    assert.throws(() => noX.read(env({ ITEMS: 'a,x' })), /ITEMS has an x/);
  });

  it('groups settings into an object, listing each variable once in the order declared', () => {
    const settings = group({
      port: PORT,
      nested: group({ ms: derive(integer('SECONDS', 2, [0, 9], 's'), (seconds) => seconds * 1000), again: PORT }),
    });
    assert.deepEqual(names(settings), ['PORT', 'SECONDS']);
    assert.deepEqual(settings.read(env({ SECONDS: '3' })), { port: 8080, nested: { ms: 3000, again: 8080 } });
  });

  it('reads a setting under a choice only when the choice selects it', () => {
    const store = choice('STORE', ['local', 's3'], 'local', 'the store');
    const bucket = when(store, 's3', group({ name: required('BUCKET', 'is required with s3', 'a bucket') }));
    assert.deepEqual(names(bucket), ['STORE', 'BUCKET']);
    assert.equal(bucket.read(env({ BUCKET: 'b' })), null);
    assert.deepEqual(bucket.read(env({ STORE: 's3', BUCKET: 'b' })), { name: 'b' });
    assert.throws(() => bucket.read(env({ STORE: 's3' })), /BUCKET is required with s3/);
  });

  it("checks a section's values against each other once they are read", () => {
    const timeouts = section('Timeouts', { whole: PORT, part: integer('PART', 1, [0, 65535], 'a part') }, (read) => {
      if (read.part > read.whole) throw new ConfigError('PART', 'must not exceed PORT');
    });
    assert.equal(timeouts.title, 'Timeouts');
    assert.deepEqual(timeouts.read(env({ PART: '80' })), { whole: 8080, part: 80 });
    assert.throws(() => timeouts.read(env({ PART: '9000' })), /PART must not exceed PORT/);
  });
});
