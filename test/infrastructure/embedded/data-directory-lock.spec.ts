import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataDirectoryInUseError, dataDirectoryOwner, lockDataDirectory } from '../../../infrastructure/embedded/data-directory-lock.js';

describe('embedded data directory lock', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'vds-lock-'));
  });
  afterEach(async () => rm(directory, { recursive: true, force: true }));

  it('lets one process in, refuses the next while it lives, and frees the directory on release', async () => {
    const lock = await lockDataDirectory(directory);
    assert.equal(await dataDirectoryOwner(directory), process.pid);
    await assert.rejects(lockDataDirectory(directory), (error: unknown) => error instanceof DataDirectoryInUseError && error.pid === process.pid);
    await lock.release();
    assert.equal(await dataDirectoryOwner(directory), null);
    await (await lockDataDirectory(directory)).release();
  });

  it('takes over a directory whose owner died without releasing it', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid as number;
    await new Promise((resolve) => child.on('exit', resolve));
    await writeFile(path.join(directory, 'owner.pid'), String(pid));
    assert.equal(await dataDirectoryOwner(directory), null);
    const lock = await lockDataDirectory(directory);
    assert.equal(await dataDirectoryOwner(directory), process.pid);
    await lock.release();
  });
});
