import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TemporaryWorkDirs } from '../../../infrastructure/files/temporary-work-dirs.js';

describe('temporary work directories', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'work-dirs-'));
  });
  afterEach(async () => rm(root, { recursive: true, force: true }));

  const leave = async (owner: string) => {
    const dir = path.join(root, owner, 'job-abc123');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'video.part'), 'partial');
  };

  it('creates one directory per attempt under this process, and removes it', async () => {
    const dirs = new TemporaryWorkDirs(root, { host: 'worker-1', pid: 4242 }, () => true);
    const dir = await dirs.create('job/1');
    assert.equal(path.dirname(dir), path.join(root, 'worker-1-4242'));
    assert.match(path.basename(dir), /^job_1-/);
    await dirs.remove(dir);
    await assert.rejects(stat(dir));
  });

  it('removes at start what dead processes of this host and an earlier process with its pid left, and nothing else', async () => {
    const running = new Set([200]);
    await leave('worker-1-100'); // dead
    await leave('worker-1-200'); // alive
    await leave('worker-1-300'); // this process's pid, from before a restart
    await leave('worker-2-100'); // another host: cannot be judged from here
    await leave('worker-1-abc'); // not a pid
    await mkdir(path.join(root, 'unrelated'));
    const dirs = new TemporaryWorkDirs(root, { host: 'worker-1', pid: 300 }, (pid) => running.has(pid));
    assert.deepEqual((await dirs.removeStale()).sort(), ['worker-1-100', 'worker-1-300']);
    assert.deepEqual((await readdir(root)).sort(), ['unrelated', 'worker-1-200', 'worker-1-abc', 'worker-2-100']);
  });

  it('finds nothing to remove when the root does not exist yet', async () => {
    const dirs = new TemporaryWorkDirs(path.join(root, 'missing'));
    assert.deepEqual(await dirs.removeStale(), []);
  });

  it('judges real processes by default: its own pid is stale, a running parent is not', async () => {
    const host = 'this-host';
    await leave(`${host}-${process.pid}`);
    await leave(`${host}-${process.ppid}`);
    const dirs = new TemporaryWorkDirs(root, { host, pid: process.pid });
    assert.deepEqual(await dirs.removeStale(), [`${host}-${process.pid}`]);
  });
});
