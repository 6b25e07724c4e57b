import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { SOAK_MARKER_VARIABLE, processesMarked } from '../../../bench/soak/leftover-processes.js';
import { checkProcessesStopped } from '../../../bench/soak/process-invariants.js';

describe('soak process invariants', () => {
  const started: ChildProcess[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) child.kill('SIGKILL');
  });

  it('hold when every process exited in time and none of the fleet is left', () => {
    assert.deepEqual(checkProcessesStopped([{ name: 'worker-1', exitedAfterMs: 900 }], []), []);
  });

  it('break for a process killed after the SIGTERM bound', () => {
    assert.match(checkProcessesStopped([{ name: 'worker-1', exitedAfterMs: null }], [])[0], /worker-1 did not exit/);
  });

  it('find and count a descendant left behind whose command line names nothing of the run (a fork server or its download)', async () => {
    const marker = `run-${randomUUID()}`;
    // As a fork server's download: its own command line, the fleet's environment inherited.
    const orphan = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], {
      env: { ...process.env, [SOAK_MARKER_VARIABLE]: marker },
      stdio: 'ignore',
    });
    started.push(orphan);
    const deadline = Date.now() + 10_000;
    let found = await processesMarked(marker);
    while (found.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      found = await processesMarked(marker);
    }
    assert.deepEqual(
      found.map((entry) => entry.pid),
      [orphan.pid],
    );
    const broken = checkProcessesStopped([{ name: 'worker-1', exitedAfterMs: 900 }], found);
    assert.equal(broken.length, 1);
    assert.match(broken[0], new RegExp(`process ${orphan.pid} of the fleet left running: \\S+ -e setTimeout`));
    assert.deepEqual(await processesMarked(`run-${randomUUID()}`), [], 'another run sees none of it');
  });
});
