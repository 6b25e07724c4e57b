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

  /** A run whose leader exits at once, leaving a child in its group that holds its output (yt-dlp gone, its ffmpeg not). */
  const LEADER_EXITS = 'sleep 1000 & echo "$!"; exit 0';

  async function startLeftBehind(options: { signal?: AbortSignal; timeoutMs?: number }) {
    let reportChild: (pid: number) => void = () => undefined;
    const childPid = new Promise<number>((resolve) => {
      reportChild = resolve;
    });
    const settled = runProcess('/bin/sh', ['-c', LEADER_EXITS], {
      ...options,
      onStdoutLine: (line) => reportChild(Number(line)),
    }).then(
      (result) => result,
      (error: unknown) => error,
    );
    const child = await childPid;
    // The leader has exited (and been reaped), the child in its group runs on.
    const leader = Number((await readFile(`/proc/${child}/stat`, 'utf8')).split(') ')[1].split(' ')[2]);
    assert.deepEqual(await waitUntilGone([leader], 5_000), [], 'the leader exited');
    assert.equal(await isGone(child), false);
    return { child, settled };
  }

  it('kills the group on abort when its leader has already exited but a child of it runs on', async () => {
    const abort = new AbortController();
    const { child, settled } = await startLeftBehind({ signal: abort.signal });

    abort.abort(new Error('cancelled'));

    assert.deepEqual(await waitUntilGone([child], 5_000), [], 'the child left behind is killed');
    assert.equal(((await settled) as Error).message, 'cancelled');
  });

  it('kills the group on timeout when its leader has already exited but a child of it runs on', async () => {
    const { child, settled } = await startLeftBehind({ timeoutMs: 1_500 });

    assert.deepEqual(await waitUntilGone([child], 10_000), [], 'the child left behind is killed');
    assert.equal(((await settled) as { timedOut: boolean }).timedOut, true);
  });

  it('stops its watchdog when a run ends normally', async () => {
    let pid = 0;
    const result = await runProcess('/bin/sh', ['-c', 'echo "$$"'], {});
    pid = Number(result.stdout.trim());
    assert.equal(result.code, 0);
    assert.deepEqual(await waitUntilGone(await watchdogsOf(pid), 2_000), []);
  });
});
