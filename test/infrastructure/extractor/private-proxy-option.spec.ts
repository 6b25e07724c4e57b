import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { installedYtDlpPath } from '../../../infrastructure/config/config.js';
import { privateProxyOption } from '../../../infrastructure/extractor/private-proxy-option.js';

const YT_DLP = process.env.YT_DLP_PATH ?? installedYtDlpPath();

describe("a run's proxy in a private options file", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'proxy-option-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is read by yt-dlp as its proxy, quotes and all, from a file only this user can read, removed after', async () => {
    // A quote and a space in the credentials: the file is split as a shell would split it.
    const proxy = "http://direct:it's a secret@127.0.0.1:9";
    const option = await privateProxyOption(proxy, dir);
    assert.equal(option.args.length, 2);
    assert.equal(option.args[0], '--config-locations');
    assert.ok(!option.args.join(' ').includes('secret'), 'the credentials are not among the arguments');
    assert.equal((await stat(option.args[1])).mode & 0o777, 0o600);
    // yt-dlp prints its proxy map with -v; the fetch itself fails at the closed port, which does not matter here.
    const { stderr } = await promisify(execFile)(
      YT_DLP,
      ['--ignore-config', ...option.args, '-v', '--simulate', 'http://127.0.0.1:1/nothing'],
      { timeout: 30_000 },
    ).catch((error: { stderr: string }) => error);
    assert.match(stderr, /Proxy map: \{'http': "http:\/\/direct:it's a secret@127\.0\.0\.1:9"/);
    await option.remove();
    assert.deepEqual(await readdir(dir), []);
  });

  it('gives each run a file of its own', async () => {
    const [first, second] = await Promise.all([
      privateProxyOption('http://a@127.0.0.1:9', dir),
      privateProxyOption('http://b@127.0.0.1:9', dir),
    ]);
    assert.notEqual(first.args[1], second.args[1]);
  });
});
