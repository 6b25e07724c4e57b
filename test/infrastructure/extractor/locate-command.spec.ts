import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { locateCommand } from '../../../infrastructure/extractor/locate-command.js';
import { pythonOfYtDlp } from '../../../infrastructure/extractor/warm/python-of-yt-dlp.js';

describe('locateCommand', () => {
  let root: string;
  let first: string;
  let second: string;
  const searchPath = () => ['', path.join(root, 'missing'), first, second].join(path.delimiter);

  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'locate-command-'));
    first = path.join(root, 'first');
    second = path.join(root, 'second');
    await mkdir(first);
    await mkdir(second);
    // In the first directory: a file that cannot be run, and a directory, both named like the commands.
    await writeFile(path.join(first, 'yt-dlp'), '#!/usr/bin/python3\n');
    await mkdir(path.join(first, 'tool'));
    for (const name of ['yt-dlp', 'tool']) {
      await writeFile(path.join(second, name), '#!/usr/bin/python3\nprint("yt-dlp")\n');
      await chmod(path.join(second, name), 0o755);
    }
  });

  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds a bare name in the first directory of the search path holding an executable file of that name', async () => {
    assert.equal(await locateCommand('yt-dlp', searchPath()), path.join(second, 'yt-dlp'));
    assert.equal(await locateCommand('tool', searchPath()), path.join(second, 'tool'));
  });

  it('answers null for a name found nowhere, and a name with a slash as it is', async () => {
    assert.equal(await locateCommand('no-such-command', searchPath()), null);
    assert.equal(await locateCommand('yt-dlp', ''), null);
    assert.equal(await locateCommand('./bin/yt-dlp', searchPath()), './bin/yt-dlp');
    assert.equal(await locateCommand('/opt/none/yt-dlp', ''), '/opt/none/yt-dlp');
  });

  it('lets pythonOfYtDlp read the interpreter of a yt-dlp named without its directory, as running it would', async () => {
    const saved = process.env.PATH;
    process.env.PATH = searchPath();
    try {
      assert.deepEqual(await pythonOfYtDlp('yt-dlp'), ['/usr/bin/python3']);
      assert.equal(await pythonOfYtDlp('no-such-command'), null);
    } finally {
      process.env.PATH = saved;
    }
  });
});
