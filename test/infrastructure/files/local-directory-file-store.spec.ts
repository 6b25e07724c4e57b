import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { LocalDirectoryFileStore } from '../../../infrastructure/files/local-directory-file-store.js';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('local directory file store', () => {
  it('moves a file in, reports its size, reads it whole or by byte range, and removes it', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'store-'));
    const work = await mkdtemp(path.join(tmpdir(), 'work-'));
    const source = path.join(work, 'out.bin');
    await writeFile(source, '0123456789');
    const store = new LocalDirectoryFileStore(root);
    assert.deepEqual(await store.put('acc/job.bin', source), { key: 'acc/job.bin', size: 10 });
    await assert.rejects(readFile(source));
    const stat = await store.stat('acc/job.bin');
    assert.deepEqual({ key: stat?.key, size: stat?.size }, { key: 'acc/job.bin', size: 10 });
    assert.ok(stat?.modifiedAt instanceof Date, 'the time it was written, for Last-Modified');
    assert.equal(await text(store.read('acc/job.bin')), '0123456789');
    assert.equal(await text(store.read('acc/job.bin', { start: 2, end: 4 })), '234');
    await store.remove('acc/job.bin');
    assert.equal(await store.stat('acc/job.bin'), null);
  });

  it('refuses keys that would leave its directory', async () => {
    const store = new LocalDirectoryFileStore(await mkdtemp(path.join(tmpdir(), 'store-')));
    await assert.rejects(store.stat('../etc/passwd'), /outside/);
  });
});
