import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ExtractionError } from '../../../../application/ports/extractor/extraction-error.js';
import { YtDlpExtractor } from '../../../../infrastructure/extractor/yt-dlp-extractor.js';
import { isAlive, isRunning } from '../../../support/processes.js';

const URL = 'http://127.0.0.1:1/watch?v=a';

/**
 * A stand-in for the yt_dlp package: its import records the importing
 * process's id, and its entry point answers `-J` with a page whose title
 * names the process that ran it, its working directory and its URL. With
 * `sleep` in the URL it starts a `sleep` (its pid written to a file) and
 * waits on it, as yt-dlp waits on ffmpeg (with `leave` too, it exits at once
 * and leaves the child running); with `fail` it exits as yt-dlp
 * does on an error, through sys.exit with a message.
 */
const FAKE_MODULE = `
import json, os, subprocess, sys
with open(os.environ['FAKE_IMPORTS'], 'a') as log:
    log.write(f'{os.getpid()}\\n')

def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    url = argv[-1]
    if 'sleep' in url:
        child = subprocess.Popen(['sleep', '1000'])
        with open(os.environ['FAKE_SLEEPER'], 'w') as out:
            out.write(str(child.pid))
        if 'leave' in url:
            # Exits at once, its child left running with its output, as a yt-dlp whose ffmpeg outlives it.
            os._exit(0)
        child.wait()
    if 'fail' in url:
        print('[debug] about to fail', file=sys.stderr)
        sys.exit('ERROR: [fixture] a: This video is unavailable')
    print(json.dumps({'id': 'a', 'title': f'{os.getpid()} {os.getcwd()} {url}', 'duration': 1}))
    return 0
`;

async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, `${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('yt-dlp fork server', function () {
  this.timeout(60_000);
  let root: string;
  let program: string;
  let imports: string;
  let sleeper: string;
  const extractors: YtDlpExtractor[] = [];

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'yt-dlp-forks-'));
    await mkdir(path.join(root, 'lib', 'yt_dlp'), { recursive: true });
    await writeFile(path.join(root, 'lib', 'yt_dlp', '__init__.py'), FAKE_MODULE);
    program = path.join(root, 'yt-dlp');
    await writeFile(program, '#!/usr/bin/python3\nimport sys\nfrom yt_dlp import main\nsys.exit(main())\n');
    await chmod(program, 0o755);
    imports = path.join(root, 'imports.log');
    sleeper = path.join(root, 'sleeper.pid');
    process.env.FAKE_IMPORTS = imports;
    process.env.FAKE_SLEEPER = sleeper;
  });

  afterEach(async () => {
    for (const extractor of extractors.splice(0)) extractor.forks?.stop();
    delete process.env.FAKE_IMPORTS;
    delete process.env.FAKE_SLEEPER;
    await rm(root, { recursive: true, force: true });
  });

  const importedBy = async () =>
    (await readFile(imports, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
  const sleeperPid = async () => Number(await readFile(sleeper, 'utf8').catch(() => '0'));

  const extractor = (installation: () => Promise<number> = async () => 0, warmUpOnFirstUse = false) => {
    const created = new YtDlpExtractor({
      ytDlpPath: program,
      ffmpegPath: 'ffmpeg',
      pythonPath: path.join(root, 'lib'),
      installation,
      warmUpOnFirstUse,
    });
    extractors.push(created);
    created.forks?.start();
    return created;
  };
  const serverOf = async (ytDlp: YtDlpExtractor) => {
    // Until it is ready (yt_dlp imported, warmed up) a run would start the command instead.
    await eventually(() => ytDlp.forks?.serverPid !== undefined, 'a fork server is ready');
    return ytDlp.forks?.serverPid as number;
  };
  const startSleepingRun = async (ytDlp: YtDlpExtractor, signal?: AbortSignal) => {
    const settled = ytDlp.probe(`${URL}&sleep`, { signal }).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await eventually(async () => (await sleeperPid()) !== 0, 'the run started its child');
    return { settled, child: await sleeperPid() };
  };

  it('forks every run from one server that imported yt_dlp once, with the run’s own arguments', async () => {
    const ytDlp = extractor();
    const server = await serverOf(ytDlp);

    const first = await ytDlp.probe(URL);
    const second = await ytDlp.probe(`${URL}&b`);

    const [firstPid, , firstUrl] = first.title.split(' ');
    const [secondPid, , secondUrl] = second.title.split(' ');
    assert.deepEqual([firstUrl, secondUrl], [URL, `${URL}&b`]);
    assert.notEqual(Number(firstPid), server, 'a run is a process of its own');
    assert.notEqual(firstPid, secondPid);
    assert.deepEqual(await importedBy(), [server], 'no run imported yt_dlp again');
  });

  it('launched on first use, starts no Python until a run asks; that run starts the command, later ones fork', async () => {
    const atStart = extractor();
    assert.equal(atStart.forks?.launchedYet, true, 'launched at start by default');
    atStart.forks?.stop();
    const ytDlp = extractor(undefined, true);
    assert.equal(ytDlp.forks?.launchedYet, false);

    const first = Number((await ytDlp.probe(URL)).title.split(' ')[0]);
    assert.equal(ytDlp.forks?.launchedYet, true);
    const server = await serverOf(ytDlp);
    const second = Number((await ytDlp.probe(`${URL}&b`)).title.split(' ')[0]);

    const imported = await importedBy();
    assert.ok(imported.includes(first), 'the first run, started as a command, imported yt_dlp itself');
    assert.ok(imported.includes(server));
    assert.ok(!imported.includes(second) && second !== server, 'the next run was a fork of the server');
  });

  it('passes on a failing run’s output and exit as the command would', async () => {
    const ytDlp = extractor();
    await serverOf(ytDlp);

    const error = await ytDlp.probe(`${URL}&fail`).then(
      () => null,
      (failure: unknown) => failure,
    );

    assert.ok(error instanceof ExtractionError, String(error));
    assert.equal(error.code, 'VIDEO_UNAVAILABLE');
    assert.match(error.details ?? '', /about to fail[\s\S]*This video is unavailable/);
  });

  it('kills the whole process group of a forked run when it is aborted, and goes on serving', async () => {
    const ytDlp = extractor();
    const server = await serverOf(ytDlp);
    const abort = new AbortController();
    const { settled, child } = await startSleepingRun(ytDlp, abort.signal);

    abort.abort(new Error('cancelled'));

    assert.notEqual(await settled, 'resolved');
    await eventually(() => !isAlive(child), 'the run’s child is gone');
    const next = await ytDlp.probe(URL);
    assert.ok(isAlive(server));
    assert.notEqual(Number(next.title.split(' ')[0]), server);
    assert.deepEqual(await importedBy(), [server], 'the next run was forked too');
  });

  it('kills the process group of a run whose yt-dlp has exited while its child runs on, when it is aborted', async () => {
    const ytDlp = extractor();
    await serverOf(ytDlp);
    const abort = new AbortController();
    const settled = ytDlp.probe(`${URL}&sleep&leave`, { signal: abort.signal }).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await eventually(async () => (await sleeperPid()) !== 0, 'the run started its child');
    const child = await sleeperPid();
    const leader = Number((await readFile(`/proc/${child}/stat`, 'utf8')).split(') ')[1].split(' ')[2]);
    await eventually(() => !isAlive(leader), 'the run’s yt-dlp exited');

    abort.abort(new Error('cancelled'));

    await eventually(async () => !(await isRunning(child)), 'the child it left running is gone');
    assert.notEqual(await settled, 'resolved');
  });

  it('ends the runs of a server that dies, kills what they started, and starts another server', async () => {
    const ytDlp = extractor();
    const server = await serverOf(ytDlp);
    const { settled, child } = await startSleepingRun(ytDlp);

    process.kill(server, 'SIGKILL');

    const outcome = await settled;
    assert.ok(outcome instanceof ExtractionError, `the run failed: ${String(outcome)}`);
    await eventually(() => !isAlive(child), 'the orphaned run’s child is gone');
    const replacement = await serverOf(ytDlp);
    assert.notEqual(replacement, server);
    const next = await ytDlp.probe(URL);
    assert.notEqual(Number(next.title.split(' ')[0]), replacement);
  });

  it('does not fork from a server that imported an earlier installation of yt-dlp', async () => {
    let installation = 0;
    const ytDlp = extractor(async () => installation);
    const stale = await serverOf(ytDlp);
    installation = 1;

    const { title } = await ytDlp.probe(URL);

    const runPid = Number(title.split(' ')[0]);
    assert.ok((await importedBy()).includes(runPid), 'the run started the command, which imported yt_dlp itself');
    await eventually(() => !isAlive(stale), 'the stale server ended');
    const fresh = await serverOf(ytDlp);
    assert.notEqual(fresh, stale);
  });

  it('stopping ends the server and the runs still going on it', async () => {
    const ytDlp = extractor();
    const server = await serverOf(ytDlp);
    const { settled, child } = await startSleepingRun(ytDlp);

    ytDlp.forks?.stop();

    assert.notEqual(await settled, 'resolved');
    await eventually(() => !isAlive(child) && !isAlive(server), 'the server and the run’s child are gone');
  });

  it('leaves no run behind when the service process is killed outright', async () => {
    const script = `
      const { YtDlpExtractor } = require(${JSON.stringify(require.resolve('../../../../infrastructure/extractor/yt-dlp-extractor.js'))});
      const ytDlp = new YtDlpExtractor({ ytDlpPath: ${JSON.stringify(program)}, ffmpegPath: 'ffmpeg', pythonPath: ${JSON.stringify(path.join(root, 'lib'))} });
      ytDlp.forks.start();
      const poll = setInterval(() => {
        const pid = ytDlp.forks.serverPid;
        if (pid === undefined || !require('fs').readFileSync(process.env.FAKE_IMPORTS, 'utf8').includes(String(pid))) return;
        clearInterval(poll);
        console.log(pid);
        ytDlp.probe(${JSON.stringify(`${URL}&sleep`)}).catch(() => undefined);
      }, 25);
    `;
    await writeFile(imports, '');
    const service = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let printed = '';
    service.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    try {
      await eventually(async () => printed.trim() !== '' && (await sleeperPid()) !== 0, 'the service forked a run');
      const server = Number(printed.trim());
      const child = await sleeperPid();

      service.kill('SIGKILL');

      await eventually(() => !isAlive(server) && !isAlive(child), 'the server and the run’s child are gone');
    } finally {
      service.kill('SIGKILL');
    }
  });
});
