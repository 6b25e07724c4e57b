import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DataDirectoryInUseError,
  dataDirectoryOwner,
  lockDataDirectory,
} from '../../../infrastructure/embedded/data-directory-lock.js';

describe('embedded data directory lock', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'vds-lock-'));
  });
  afterEach(async () => rm(directory, { recursive: true, force: true }));

  it('lets one process in, refuses the next while it lives, and frees the directory on release', async () => {
    const lock = await lockDataDirectory(directory);
    assert.equal(await dataDirectoryOwner(directory), process.pid);
    await assert.rejects(
      lockDataDirectory(directory),
      (error: unknown) => error instanceof DataDirectoryInUseError && error.pid === process.pid,
    );
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

  it('takes over a file naming its own pid when it does not hold the directory (a restarted container whose node is pid 1 again)', async () => {
    await writeFile(path.join(directory, 'owner.pid'), String(process.pid));
    assert.equal(await dataDirectoryOwner(directory), null);
    const lock = await lockDataDirectory(directory);
    assert.equal(await dataDirectoryOwner(directory), process.pid);
    await assert.rejects(lockDataDirectory(directory), DataDirectoryInUseError);
    await lock.release();
  });

  it('lets exactly one of several processes starting together after a crash take the directory', async function () {
    this.timeout(120_000);
    for (let round = 0; round < 4; round++) {
      await writeFile(path.join(directory, 'owner.pid'), String(await deadPid()));
      const outcomes = await raceForLock(directory, 6);
      assert.deepEqual(
        outcomes.filter((outcome) => outcome !== 'in-use'),
        ['locked'],
        `round ${round}: ${outcomes.join(', ')}`,
      );
      await rm(directory, { recursive: true, force: true });
      await mkdir(directory);
    }
  });
});

const STARTER = `
const { lockDataDirectory } = require(process.argv[1]);
process.stdin.once('data', () => {
  lockDataDirectory(process.argv[2]).then(
    () => console.log('locked'),
    (error) => console.log(error.name === 'DataDirectoryInUseError' ? 'in-use' : 'error ' + error.message),
  );
});
process.stdin.on('end', () => process.exit(0));
console.log('ready');
`;

/** Starts `count` processes, lets them all try the lock at once and returns what each got; they hold it until then. */
async function raceForLock(directory: string, count: number): Promise<string[]> {
  const module = path.resolve(__dirname, '../../../infrastructure/embedded/data-directory-lock.js');
  const starters: ChildProcessWithoutNullStreams[] = [];
  try {
    const lines = Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ['-e', STARTER, module, directory]);
      starters.push(child);
      return createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    });
    for (const line of lines) assert.equal((await line.next()).value, 'ready');
    for (const child of starters) child.stdin.write('go\n');
    return await Promise.all(lines.map(async (line) => String((await line.next()).value)));
  } finally {
    for (const child of starters) {
      child.stdin.end();
      if (child.exitCode === null) await once(child, 'exit');
    }
  }
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid as number;
}
