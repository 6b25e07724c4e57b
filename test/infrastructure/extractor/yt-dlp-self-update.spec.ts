import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ExclusiveGate } from '../../../infrastructure/extractor/exclusive-gate.js';
import { YtDlpSelfUpdate } from '../../../infrastructure/extractor/yt-dlp-self-update.js';
import type { YtDlpVersion } from '../../../infrastructure/extractor/yt-dlp-version.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const UPDATES = `echo "$*" > "$dir/updated"; echo 2026.01.02.030405 > "$dir/version"`;
/** yt-dlp's answer when its release server cannot be reached. */
const FAILS_ONCE = `if [ -e "$dir/failed" ]; then ${UPDATES}; else touch "$dir/failed"; echo "ERROR: Unable to obtain version info (<urlopen error [Errno -3] Temporary failure in name resolution>); Please try again later" >&2; exit 1; fi`;

/** A stand-in for a standalone yt-dlp: `--update-to` rewrites the version it reports. */
async function fakeYtDlp(canUpdate: boolean | 'after a failure'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fake-yt-dlp-'));
  await writeFile(path.join(dir, 'version'), '2025.01.01\n');
  const program = path.join(dir, 'yt-dlp');
  const update =
    canUpdate === 'after a failure'
      ? FAILS_ONCE
      : canUpdate
        ? UPDATES
        : 'echo "ERROR: You installed yt-dlp with pip or using the wheel from PyPi; Use that to update" >&2; exit 1';
  await writeFile(
    program,
    `#!/bin/sh\ndir=$(dirname "$0")\ncase " $* " in\n  *" --version "*) cat "$dir/version" ;;\n  *" --update-to "*) ${update} ;;\nesac\n`,
  );
  await chmod(program, 0o755);
  return program;
}

describe('yt-dlp self-update between runs', () => {
  it('waits for the runs under way, holds new ones back, then reports the new version', async () => {
    const gate = new ExclusiveGate();
    const versions: YtDlpVersion[] = [];
    const order: string[] = [];
    const onVersion = (version: YtDlpVersion) => {
      versions.push(version);
      order.push('update finished');
    };
    const updater = new YtDlpSelfUpdate({
      ytDlpPath: await fakeYtDlp(true),
      channel: 'nightly',
      intervalMs: 3_600_000,
      gate,
      logger: createLogger('silent'),
      onVersion,
    });
    const download = gate.shared(async () => {
      await sleep(300);
      order.push('download finished');
    });
    const update = updater.updateOnce();
    await sleep(20);
    const later = gate.shared(async () => {
      order.push('later run started');
    });
    assert.equal(await update, true);
    await Promise.all([download, later]);
    assert.deepEqual(order, ['download finished', 'update finished', 'later run started']);
    assert.deepEqual(versions, [{ version: '2026.01.02.030405', release: '2026.01.02', channel: 'nightly' }]);
  });

  it('updates with --ignore-config, so no yt-dlp configuration file on the host can add options to the update', async () => {
    const program = await fakeYtDlp(true);
    const updater = new YtDlpSelfUpdate({
      ytDlpPath: program,
      channel: 'stable',
      intervalMs: 3_600_000,
      gate: new ExclusiveGate(),
      logger: createLogger('silent'),
      onVersion: () => undefined,
    });
    assert.equal(await updater.updateOnce(), true);
    assert.equal(
      (await readFile(path.join(path.dirname(program), 'updated'), 'utf8')).trim(),
      '--ignore-config --update-to stable',
    );
  });

  it('tries again at the next interval after an update that failed, such as one whose server was out of reach', async () => {
    const versions: YtDlpVersion[] = [];
    const updater = new YtDlpSelfUpdate({
      ytDlpPath: await fakeYtDlp('after a failure'),
      channel: 'stable',
      intervalMs: 50,
      gate: new ExclusiveGate(),
      logger: createLogger('silent'),
      onVersion: (v) => versions.push(v),
    });
    updater.start();
    try {
      const deadline = Date.now() + 20_000;
      while (versions.length === 0) {
        assert.ok(Date.now() < deadline, 'no update after the failed one');
        await sleep(20);
      }
      assert.equal(versions[0].version, '2026.01.02.030405');
    } finally {
      await updater.stop();
    }
  });

  it('gives up on an installation that cannot update itself', async () => {
    const versions: YtDlpVersion[] = [];
    const updater = new YtDlpSelfUpdate({
      ytDlpPath: await fakeYtDlp(false),
      channel: 'stable',
      intervalMs: 3_600_000,
      gate: new ExclusiveGate(),
      logger: createLogger('silent'),
      onVersion: (v) => versions.push(v),
    });
    assert.equal(await updater.updateOnce(), false);
    assert.deepEqual(versions, []);
  });
});
