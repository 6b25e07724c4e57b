import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { locateDownloadedFile } from '../../../infrastructure/extractor/locate-downloaded-file.js';

describe('locating the downloaded file', () => {
  let workDir: string;
  beforeEach(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'locate-downloaded-file-'));
  });
  afterEach(() => rm(workDir, { recursive: true, force: true }));

  it('takes the last printed path, relative ones against the work directory', async () => {
    await writeFile(path.join(workDir, 'media.mp4'), 'x');
    await writeFile(path.join(workDir, 'media.m4a'), 'x');
    assert.equal(
      await locateDownloadedFile(workDir, [path.join(workDir, 'media.mp4'), 'media.m4a'], 'media'),
      path.join(workDir, 'media.m4a'),
    );
  });

  it('refuses a printed path outside the work directory or one that does not exist', async () => {
    assert.equal(await locateDownloadedFile(workDir, ['/etc/passwd'], 'media'), null);
    assert.equal(await locateDownloadedFile(workDir, ['../elsewhere/media.mp4'], 'media'), null);
    assert.equal(await locateDownloadedFile(workDir, ['media.mp4'], 'media'), null);
  });

  it('falls back to the only media file when nothing was printed, ignoring partial files, metadata and stream parts', async () => {
    await writeFile(path.join(workDir, 'media.webm'), 'x');
    await writeFile(path.join(workDir, 'media.f251.webm.part'), 'x');
    await writeFile(path.join(workDir, 'media.f136.mp4'), 'x');
    await writeFile(path.join(workDir, '.info.json'), '{}');
    assert.equal(await locateDownloadedFile(workDir, [], 'media'), path.join(workDir, 'media.webm'));
    await writeFile(path.join(workDir, 'media.mp4'), 'x');
    assert.equal(await locateDownloadedFile(workDir, [], 'media'), null, 'two candidates: no guess');
  });
});
