import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { runProcess } from '../../../infrastructure/extractor/run-process.js';

/** Gone, or a zombie nobody has reaped yet (it runs nothing any more). */
async function isGone(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat === '' || /^\d+ \(.*\) Z /.test(stat);
}

async function waitUntilGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive: number[] = [];
    for (const pid of pids) if (!(await isGone(pid))) alive.push(pid);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Running watchdogs guarding process group `pgid`. */
async function watchdogsOf(pgid: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.endsWith(`\0process-group-watchdog\0${pgid}\0`) && !(await isGone(Number(entry))))
      found.push(Number(entry));
  }
  return found;
}

describe('runProcess and dying workers', function () {
  this.timeout(30_000);

  it('leaves nothing running when the worker that started a run is killed with SIGKILL', async () => {
    const worker = spawn(process.execPath, [path.resolve('build/test/support/worker-like-process.js')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pids = await new Promise<number[]>((resolve, reject) => {
      let output = '';
      worker.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        const lines = output.split('\n').filter((line) => /^\d+$/.test(line));
        if (lines.length >= 2) resolve(lines.map(Number));
      });
      worker.once('exit', () => reject(new Error(`the worker exited early: ${output}`)));
    });
    const [grandchild, child] = pids;
    assert.equal(await isGone(child), false);
    assert.equal(await isGone(grandchild), false);

    worker.kill('SIGKILL');
    const alive = await waitUntilGone([child, grandchild], 5_000);
    assert.deepEqual(alive, [], `still running after the worker died: ${alive.join(', ')}`);
  });

  it('stops its watchdog when a run ends normally', async () => {
    let pid = 0;
    const result = await runProcess('/bin/sh', ['-c', 'echo "$$"'], {});
    pid = Number(result.stdout.trim());
    assert.equal(result.code, 0);
    assert.deepEqual(await waitUntilGone(await watchdogsOf(pid), 2_000), []);
  });
});
