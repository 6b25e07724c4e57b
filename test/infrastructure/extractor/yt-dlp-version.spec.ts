import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  detectYtDlpVersion,
  parseYtDlpVersion,
  supports,
  versionDependentArguments,
} from '../../../infrastructure/extractor/yt-dlp-version.js';
import { installedYtDlpPath } from '../../../infrastructure/config/config.js';

const YT_DLP = process.env.YT_DLP_PATH ?? installedYtDlpPath();

describe('yt-dlp version detection and the options it allows', () => {
  it('reads the installed program’s version, and gives a release before --js-runtimes existed no such option', async function () {
    this.timeout(30_000);
    const detected = await detectYtDlpVersion(YT_DLP);
    assert.match(detected.version, /^\d{4}\.\d{2}\.\d{2}/);
    assert.ok(['stable', 'nightly', 'master'].includes(detected.channel), detected.channel);
    assert.equal(detected.release, detected.version.slice(0, 10));
    if (detected.release !== null && detected.release < '2025.11.12')
      assert.deepEqual(versionDependentArguments(detected, process.execPath), []);
  });

  it('reports a program that cannot be run as unknown', async () => {
    assert.deepEqual(await detectYtDlpVersion('/nonexistent/yt-dlp'), {
      version: 'unknown',
      release: null,
      channel: 'unknown',
    });
  });

  it('asks a program once while it stays the same file, and again once it is replaced', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'yt-dlp-version-'));
    try {
      const program = path.join(directory, 'yt-dlp');
      const runs = path.join(directory, 'runs');
      const install = async (version: string) => {
        const next = `${program}.next`;
        await writeFile(next, `#!/bin/sh\necho run >> '${runs}'\necho ${version}\n`, { mode: 0o755 });
        await rename(next, program);
      };
      await appendFile(runs, '');
      await install('2024.01.02');
      assert.equal((await detectYtDlpVersion(program)).version, '2024.01.02');
      assert.equal((await detectYtDlpVersion(program)).version, '2024.01.02');
      assert.equal((await readFile(runs, 'utf8')).split('\n').filter(Boolean).length, 1);
      await install('2025.12.01');
      assert.equal((await detectYtDlpVersion(program)).version, '2025.12.01');
      assert.equal((await readFile(runs, 'utf8')).split('\n').filter(Boolean).length, 2);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('parses stable and nightly versions, with or without leading zeros', () => {
    assert.deepEqual(parseYtDlpVersion('2023.03.04\n'), {
      version: '2023.03.04',
      release: '2023.03.04',
      channel: 'stable',
    });
    assert.deepEqual(parseYtDlpVersion('2025.11.12.232815'), {
      version: '2025.11.12.232815',
      release: '2025.11.12',
      channel: 'nightly',
    });
    assert.deepEqual(parseYtDlpVersion('2024.1.7'), { version: '2024.1.7', release: '2024.01.07', channel: 'stable' });
    assert.deepEqual(parseYtDlpVersion('weird-build'), { version: 'weird-build', release: null, channel: 'unknown' });
    assert.deepEqual(parseYtDlpVersion(''), { version: 'unknown', release: null, channel: 'unknown' });
  });

  it('passes --js-runtimes with this Node from the release that understands it on', () => {
    const args = (version: string) => versionDependentArguments(parseYtDlpVersion(version), '/opt/node/bin/node');
    assert.deepEqual(args('2023.03.04'), []);
    assert.deepEqual(args('2025.10.22'), []);
    assert.deepEqual(args('2025.11.12'), ['--js-runtimes', 'node:/opt/node/bin/node']);
    assert.deepEqual(args('2026.08.19.010203'), ['--js-runtimes', 'node:/opt/node/bin/node']);
    assert.deepEqual(args('unknown'), []);
    assert.equal(supports(parseYtDlpVersion('2025.11.11'), 'jsRuntimes'), false);
  });

  it('passes YT_DLP_EXTRACTORS as --use-extractors, one comma-separated value, from the release that has it on', () => {
    const args = (version: string, extractors: string[]) =>
      versionDependentArguments(parseYtDlpVersion(version), '/opt/node/bin/node', extractors);
    assert.deepEqual(args('2023.03.04', ['youtube.*', 'generic']), ['--use-extractors', 'youtube.*,generic']);
    assert.deepEqual(args('2022.09.01', ['youtube.*']), ['--use-extractors', 'youtube.*']);
    assert.deepEqual(args('2022.08.19', ['youtube.*']), []);
    assert.deepEqual(args('unknown', ['youtube.*']), []);
    assert.deepEqual(args('2023.03.04', []), [], 'empty: yt-dlp uses all of them');
  });
});
