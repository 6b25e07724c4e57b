import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The installer's check of a downloaded yt-dlp release against the release's SHA2-256SUMS. */
const SCRIPT = path.resolve('infrastructure/setup/verify-sha256.sh');

function verify(file: string, sums: string, name = 'yt-dlp'): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', [SCRIPT, file, sums, name], (error, _stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stderr }),
    );
  });
}

describe('verifying a downloaded yt-dlp release against its published SHA-256 sums', () => {
  let dir: string;
  let program: string;
  let sums: string;
  const content = '#!/usr/bin/env python3\nprint("yt-dlp")\n';
  const hash = createHash('sha256').update(content).digest('hex');

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'verify-sha256-'));
    program = path.join(dir, 'yt-dlp.partial');
    sums = path.join(dir, 'SHA2-256SUMS');
    await writeFile(program, content);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('accepts the release when its entry matches, among the other files the release lists', async () => {
    await writeFile(sums, `${'a'.repeat(64)}  yt-dlp.exe\n${hash}  yt-dlp\n${'b'.repeat(64)}  yt-dlp_linux\n`);
    assert.deepEqual(await verify(program, sums), { code: 0, stderr: '' });
    await writeFile(sums, `${hash.toUpperCase()} *yt-dlp\n`);
    assert.equal((await verify(program, sums)).code, 0, 'binary-mode entries and upper-case hex are the same sum');
  });

  it('refuses a download whose SHA-256 differs, saying so', async () => {
    await writeFile(sums, `${hash}  yt-dlp\n`);
    await writeFile(program, `${content}import os; os.system("curl evil")\n`);
    const result = await verify(program, sums);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^refusing yt-dlp: its SHA-256 is [0-9a-f]{64} but the release publishes [0-9a-f]{64}; the download is not the release$/m,
    );
  });

  it('fails closed when the sums are missing, empty, lack the file, list it twice, or are no hash', async () => {
    const cases: Array<[string | null, RegExp]> = [
      [null, /could not be read/],
      ['', /could not be read/],
      [`${hash}  yt-dlp_linux\n${hash}  yt-dlp.tar.gz\n`, /lists it nowhere/],
      [`${hash}  yt-dlp\n${hash}  yt-dlp\n`, /lists it more than once/],
      ['not-a-hash  yt-dlp\n', /is not a SHA-256 hash/],
    ];
    for (const [text, reason] of cases) {
      await rm(sums, { force: true });
      if (text !== null) await writeFile(sums, text);
      const result = await verify(program, sums);
      assert.equal(result.code, 1, String(text));
      assert.match(result.stderr, reason, String(text));
    }
  });
});
