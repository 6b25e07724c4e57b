import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { installedYtDlpPath } from '../../../../../infrastructure/config/config.js';
import { pythonOfYtDlp } from '../../../../../infrastructure/extractor/warm/python-of-yt-dlp.js';

const YT_DLP = process.env.YT_DLP_PATH ?? installedYtDlpPath();

/** A helper that says where it runs, then takes a minute over every request: it reads no further input meanwhile. */
const BUSY_HELPER = `
import json, os, sys, time
with open(json.loads(os.environ['YT_DLP_HELPER_SETTINGS'])['pidFile'], 'w') as file:
    file.write(str(os.getpid()))
print(json.dumps({'ready': True, 'version': 'busy'}), flush=True)
for line in sys.stdin:
    time.sleep(60)
`;

/** A service stand-in: starts a helper, gives it a request, and says so. */
const PARENT = `
const { HelperProcess } = require(process.argv[1]);
const [python, script, pidFile] = process.argv.slice(2);
HelperProcess.start({ python: JSON.parse(python), script, settings: { pidFile }, env: process.env, readyTimeoutMs: 10000 }).then(({ helper }) => {
  helper.extract('https://example.invalid/watch?v=a').catch(() => undefined);
  process.stdout.write('busy\\n');
});
setInterval(() => undefined, 1000);
`;

/** Alive, and not a zombie waiting for a parent that may never reap it. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('a warm helper whose service process dies', function () {
  this.timeout(30_000);
  let scratch: string;
  let helperPid: number | null = null;

  before(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'helper-parent-'));
    await writeFile(path.join(scratch, 'busy.py'), BUSY_HELPER);
  });
  after(async () => {
    // Only when the test failed is there a helper left to clean up.
    if (helperPid !== null && running(helperPid)) process.kill(-helperPid, 'SIGKILL');
    await rm(scratch, { recursive: true, force: true });
  });

  it('is killed when that process is killed with SIGKILL, even in the middle of a request', async () => {
    const python = (await pythonOfYtDlp(YT_DLP)) ?? ['python3'];
    const module = path.resolve(__dirname, '../../../../../infrastructure/extractor/warm/helper-process.js');
    const pidFile = path.join(scratch, 'helper.pid');
    const parent = spawn(
      process.execPath,
      ['-e', PARENT, module, JSON.stringify(python), path.join(scratch, 'busy.py'), pidFile],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => parent.once('exit', resolve));
    const [line] = await Promise.race([
      createInterface({ input: parent.stdout })
        [Symbol.asyncIterator]()
        .next()
        .then((next) => [String(next.value)]),
      exited.then(() => ['']),
    ]);
    assert.equal(line, 'busy', 'the parent started a helper');
    helperPid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(running(helperPid));

    parent.kill('SIGKILL');
    await exited;
    const deadline = Date.now() + 5_000;
    while (running(helperPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(!running(helperPid), 'the helper outlived its parent by more than 5 s');
  });
});
