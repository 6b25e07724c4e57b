import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { FileStore } from '../../../application/ports/file-store.js';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function sha256(stream: Readable): Promise<{ hash: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { hash: hash.digest('hex'), size };
}

/** What every FileStore adapter must do; `open` gives a fresh, empty store. */
export function fileStoreContract(open: () => Promise<FileStore>): void {
  let store: FileStore;
  let work: string;
  beforeEach(async () => {
    store = await open();
    work = await mkdtemp(path.join(tmpdir(), 'store-work-'));
  });

  async function localFile(name: string, content: string | Buffer): Promise<string> {
    const file = path.join(work, name);
    await writeFile(file, content);
    return file;
  }

  it('takes a file in, reports its size, reads it whole or by byte range, and removes it', async () => {
    const source = await localFile('out.bin', '0123456789');
    assert.deepEqual(await store.put('acc/job.bin', source), { key: 'acc/job.bin', size: 10 });
    await assert.rejects(readFile(source), 'the store owns the file now');
    const stat = await store.stat('acc/job.bin');
    assert.deepEqual({ key: stat?.key, size: stat?.size }, { key: 'acc/job.bin', size: 10 });
    assert.ok(stat?.modifiedAt instanceof Date, 'the time it was written, for Last-Modified');
    assert.equal(await text(store.read('acc/job.bin')), '0123456789');
    assert.equal(await text(store.read('acc/job.bin', { start: 2, end: 4 })), '234');
    assert.equal(await text(store.read('acc/job.bin', { start: 9, end: 9 })), '9');
    await store.remove('acc/job.bin');
    assert.equal(await store.stat('acc/job.bin'), null);
  });

  it('stores nothing when the put is aborted, and rejects with the reason', async () => {
    const source = await localFile('aborted.bin', 'not wanted');
    const controller = new AbortController();
    controller.abort(new Error('the job was cancelled'));
    await assert.rejects(store.put('acc/aborted.bin', source, { signal: controller.signal }), /the job was cancelled/);
    assert.equal(await store.stat('acc/aborted.bin'), null);
  });

  it('knows nothing of a missing key: stat is null, removing is a no-op, reading fails', async () => {
    assert.equal(await store.stat('acc/none.bin'), null);
    await store.remove('acc/none.bin');
    await assert.rejects(text(store.read('acc/none.bin')));
  });

  it('replaces a file put again under the same key', async () => {
    await store.put('acc/again.bin', await localFile('a.bin', 'first'));
    await store.put('acc/again.bin', await localFile('b.bin', 'second!'));
    const stat = await store.stat('acc/again.bin');
    assert.deepEqual({ key: stat?.key, size: stat?.size }, { key: 'acc/again.bin', size: 7 });
    assert.equal(await text(store.read('acc/again.bin')), 'second!');
  });

  it('streams a file larger than an upload part in and out unchanged', async function () {
    this.timeout(60_000);
    const source = path.join(work, 'large.bin');
    const out = createWriteStream(source);
    const expected = createHash('sha256');
    for (let index = 0; index < 12; index += 1) {
      const chunk = randomBytes(1024 * 1024);
      expected.update(chunk);
      out.write(chunk);
    }
    out.end();
    await finished(out);
    assert.deepEqual(await store.put('acc/large.bin', source), { key: 'acc/large.bin', size: 12 * 1024 * 1024 });
    assert.deepEqual(await sha256(store.read('acc/large.bin')), {
      hash: expected.digest('hex'),
      size: 12 * 1024 * 1024,
    });
    const tail = await sha256(
      store.read('acc/large.bin', { start: 12 * 1024 * 1024 - 100, end: 12 * 1024 * 1024 - 1 }),
    );
    assert.equal(tail.size, 100);
  });

  it('refuses keys that would leave the store', async () => {
    await assert.rejects(store.stat('../etc/passwd'));
    await assert.rejects(store.removeByPrefix('../etc/'));
    await assert.rejects(store.removeByPrefix('acc/../../etc/'));
  });

  it('removes every file whose key starts with a prefix, but the one it is told to keep, and nothing else', async () => {
    const keys = [
      'acc/job.1.m4a',
      'acc/job.2.m4a',
      'acc/job.3.mp4',
      'acc/jobs.1.m4a',
      'acc/other.1.m4a',
      'other/job.1.m4a',
    ];
    for (const [index, key] of keys.entries()) await store.put(key, await localFile(`f${index}.bin`, key));
    assert.deepEqual((await store.removeByPrefix('acc/job.', { except: 'acc/job.2.m4a' })).sort(), [
      'acc/job.1.m4a',
      'acc/job.3.mp4',
    ]);
    const left = [];
    for (const key of keys) if ((await store.stat(key)) !== null) left.push(key);
    assert.deepEqual(left, ['acc/job.2.m4a', 'acc/jobs.1.m4a', 'acc/other.1.m4a', 'other/job.1.m4a']);
    assert.equal(await text(store.read('acc/job.2.m4a')), 'acc/job.2.m4a');

    assert.deepEqual((await store.removeByPrefix('acc/job.')).sort(), ['acc/job.2.m4a']);
    assert.deepEqual(
      (await store.removeByPrefix('acc/')).sort(),
      ['acc/jobs.1.m4a', 'acc/other.1.m4a'],
      'a folder prefix takes the folder',
    );
    assert.notEqual(await store.stat('other/job.1.m4a'), null);
  });

  it('removes nothing, and fails not, where nothing starts with the prefix; refuses to remove everything', async () => {
    assert.deepEqual(await store.removeByPrefix('acc/none.'), []);
    assert.deepEqual(await store.removeByPrefix('no-such-folder/job.'), []);
    await assert.rejects(store.removeByPrefix(''));
  });
}
