import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { YtDlpExtractor } from '../../../infrastructure/extractor/yt-dlp-extractor.js';

const URL = 'http://127.0.0.1:1/watch?v=a';

/**
 * A stand-in for the yt_dlp package: its import records the importing
 * process's id, and its entry point answers `-J` with a page whose title
 * names the process that ran it, its working directory and its URL. With
 * `--sleep` in the URL it starts a `sleep` (its pid written to a file) and
 * waits on it, as yt-dlp waits on ffmpeg.
 */
const FAKE_MODULE = `
import json, os, subprocess, sys, time
with open(os.environ['FAKE_IMPORTS'], 'a') as log:
    log.write(f'{os.getpid()}\\n')

def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    url = argv[-1]
    if 'sleep' in url:
        child = subprocess.Popen(['sleep', '1000'])
        with open(os.environ['FAKE_SLEEPER'], 'w') as out:
            out.write(str(child.pid))
        child.wait()
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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('spare yt-dlp processes', function () {
  this.timeout(60_000);
  let root: string;
  let program: string;
  let imports: string;
  let sleeper: string;
  const extractors: YtDlpExtractor[] = [];

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'spare-yt-dlp-'));
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
    for (const extractor of extractors.splice(0)) extractor.spares.stop();
    delete process.env.FAKE_IMPORTS;
    delete process.env.FAKE_SLEEPER;
    await rm(root, { recursive: true, force: true });
  });

  const importedBy = async () =>
    (await readFile(imports, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);

  const extractor = (installation: () => Promise<number> = async () => 0) => {
    const created = new YtDlpExtractor({
      ytDlpPath: program,
      ffmpegPath: 'ffmpeg',
      pythonPath: path.join(root, 'lib'),
      spareProcesses: 1,
      installation,
    });
    extractors.push(created);
    created.spares.start();
    return created;
  };

  it('runs yt-dlp in a process that imported yt_dlp before the run was asked for, and starts its replacement once the run ended', async () => {
    const ytDlp = extractor();
    await eventually(async () => (await importedBy()).length === 1, 'a spare imported yt_dlp');
    const [spare] = await importedBy();

    const { title } = await ytDlp.probe(URL);

    const [pid, cwd, url] = title.split(' ');
    assert.equal(Number(pid), spare, 'the run is the spare');
    assert.equal(url, URL, 'with the run’s arguments');
    assert.ok(cwd.length > 0);
    await eventually(async () => (await importedBy()).length === 2, 'a replacement spare imported yt_dlp');
  });

  it('does not use a spare imported from an earlier installation of yt-dlp', async () => {
    let installation = 0;
    const ytDlp = extractor(async () => installation);
    await eventually(async () => (await importedBy()).length === 1, 'a spare imported yt_dlp');
    const [stale] = await importedBy();
    installation = 1;

    const { title } = await ytDlp.probe(URL);

    assert.notEqual(Number(title.split(' ')[0]), stale);
    await eventually(() => !alive(stale), 'the stale spare ended');
  });

  it('kills the whole process group of a run through a spare when it is aborted', async () => {
    const ytDlp = extractor();
    await eventually(async () => (await importedBy()).length === 1, 'a spare imported yt_dlp');
    const [spare] = await importedBy();
    const abort = new AbortController();

    const run = ytDlp.probe(`${URL}&sleep`, { signal: abort.signal });
    const settled = run.then(
      () => 'resolved',
      () => 'rejected',
    );
    await eventually(async () => (await readFile(sleeper, 'utf8').catch(() => '')) !== '', 'the run started its child');
    const child = Number(await readFile(sleeper, 'utf8'));
    abort.abort(new Error('cancelled'));

    assert.equal(await settled, 'rejected');
    await eventually(() => !alive(child) && !alive(spare), 'the run and its child are gone');
  });

  it('stops its idle spares', async () => {
    const ytDlp = extractor();
    await eventually(async () => (await importedBy()).length === 1, 'a spare imported yt_dlp');
    const [spare] = await importedBy();

    ytDlp.spares.stop();

    await eventually(() => !alive(spare), 'the idle spare ended');
  });
});
