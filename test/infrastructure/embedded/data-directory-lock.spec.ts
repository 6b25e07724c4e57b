import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { mkdir, mkdtemp, readFile, readlink, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DataDirectoryInUseError,
  dataDirectoryOwner,
  lockDataDirectory,
} from '../../../infrastructure/embedded/data-directory-lock.js';
import { waitFor } from '../../support/wait-for.js';

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

  describe('an owner in another pid namespace or boot (containers sharing the directory)', () => {
    const ownerFile = () => path.join(directory, 'owner.1.pid');
    const boot = async () => (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
    /** An owner this process cannot check: its pid names another process here, or none. */
    const writeForeignOwner = async (pid: number, owner: { boot?: string; beatAgoMs?: number } = {}) => {
      await writeFile(
        ownerFile(),
        JSON.stringify({ pid, boot: owner.boot ?? (await boot()), pidNamespace: 'pid:[1]', startTime: '7' }),
      );
      const beat = new Date(Date.now() - (owner.beatAgoMs ?? 0));
      await utimes(ownerFile(), beat, beat);
    };
    /** The owner's heartbeat, as its own process would keep it. */
    const keepBeating = () => {
      const timer = setInterval(() => {
        const now = new Date();
        utimes(ownerFile(), now, now).catch(() => undefined);
      }, 200);
      return () => clearInterval(timer);
    };

    for (const [what, pid] of [
      ['pid 1, as in every container', 1],
      ['our own pid', process.pid],
      ['a pid nobody has here', 0],
    ] as const) {
      it(`refuses a live owner whose heartbeat beats, named by ${what}`, async () => {
        const ownerPid = pid === 0 ? await deadPid() : pid;
        await writeForeignOwner(ownerPid);
        const stop = keepBeating();
        try {
          assert.equal(await dataDirectoryOwner(directory), ownerPid);
          await assert.rejects(
            lockDataDirectory(directory),
            (error: unknown) => error instanceof DataDirectoryInUseError && error.pid === ownerPid,
          );
        } finally {
          stop();
        }
      });
    }

    it('takes over an owner whose heartbeat is older than its lease', async () => {
      await writeForeignOwner(1, { beatAgoMs: 120_000 });
      assert.equal(await dataDirectoryOwner(directory), null);
      const lock = await lockDataDirectory(directory);
      assert.equal(await dataDirectoryOwner(directory), process.pid);
      await lock.release();
    });

    it('takes over an owner of an earlier boot, whose last beat came before this one', async () => {
      await writeForeignOwner(process.pid, { boot: 'an-earlier-boot', beatAgoMs: 120_000 });
      assert.equal(await dataDirectoryOwner(directory), null);
      await (await lockDataDirectory(directory)).release();
    });

    it('takes over at once an owner of this namespace whose pid now names another process (its start time differs)', async () => {
      const namespace = await readlink('/proc/self/ns/pid');
      await writeFile(
        ownerFile(),
        JSON.stringify({ pid: process.pid, boot: await boot(), pidNamespace: namespace, startTime: '1' }),
      );
      assert.equal(await dataDirectoryOwner(directory), null);
      await (await lockDataDirectory(directory)).release();
    });

    it('refuses an owner of this namespace that lives with the start time it recorded, beating or not', async () => {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
      try {
        const stat = await readFile(`/proc/${child.pid}/stat`, 'utf8');
        const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
        await writeFile(
          ownerFile(),
          JSON.stringify({
            pid: child.pid,
            boot: await boot(),
            pidNamespace: await readlink('/proc/self/ns/pid'),
            startTime,
          }),
        );
        const old = new Date(Date.now() - 120_000);
        await utimes(ownerFile(), old, old);
        await assert.rejects(lockDataDirectory(directory), DataDirectoryInUseError);
      } finally {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
      assert.equal(await dataDirectoryOwner(directory), null, 'once it died, the directory is free');
    });

    it('records who holds it and keeps its heartbeat, so that another namespace sees a live owner', async () => {
      const lock = await lockDataDirectory(directory);
      try {
        const held = JSON.parse(await readFile(path.join(directory, 'owner.1.pid'), 'utf8'));
        assert.equal(held.pid, process.pid);
        assert.equal(held.boot, await boot());
        assert.equal(held.pidNamespace, await readlink('/proc/self/ns/pid'));
        assert.match(held.startTime, /^\d+$/);
        const file = path.join(directory, 'owner.1.pid');
        const old = new Date(Date.now() - 60_000);
        await utimes(file, old, old);
        const deadline = Date.now() + 20_000;
        while ((await stat(file)).mtimeMs <= old.getTime()) {
          assert.ok(Date.now() < deadline, 'the owner beat within 20 s');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await lock.release();
      }
    });
  });

  it('says its heartbeat is failing while it cannot be written, and beating again once it can', async function () {
    this.timeout(60_000);
    const lock = await lockDataDirectory(directory);
    const file = path.join(directory, 'owner.1.pid');
    const aside = path.join(directory, 'aside');
    try {
      assert.equal(lock.beating, true);
      // Its file gone (a vanished or remounted volume): the heartbeat has nothing to write to.
      await rename(file, aside);
      await waitFor('the lock to say its heartbeat fails', () => !lock.beating, 20_000);
      await rename(aside, file);
      await waitFor('the lock to say its heartbeat beats again', () => lock.beating, 20_000);
    } finally {
      await rename(aside, file).catch(() => undefined);
      await lock.release();
    }
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
