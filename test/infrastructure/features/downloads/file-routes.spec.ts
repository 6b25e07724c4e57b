import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { LocalDirectoryFileStore } from '../../../../infrastructure/files/local-directory-file-store.js';
import { SignedDownloadLinks } from '../../../../infrastructure/files/signed-download-links.js';
import { errorResponses } from '../../../../infrastructure/http/middleware/error-responses.js';
import { fileRoutes } from '../../../../infrastructure/features/downloads/file-routes.js';
import { createLogger } from '../../../../infrastructure/observability/create-logger.js';

describe('file links: HEAD, ranges and validators', () => {
  const content = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));
  let dir: string;
  let server: Server;
  let link: string;
  let base: string;
  let links: SignedDownloadLinks;
  let store: LocalDirectoryFileStore;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'file-routes-'));
    store = new LocalDirectoryFileStore(path.join(dir, 'store'));
    const source = path.join(dir, 'source.m4a');
    await writeFile(source, content);
    await store.put('acc/job.m4a', source);
    links = new SignedDownloadLinks(randomBytes(32), 'http://files.example', 3600, 0);
    const app = new Koa();
    app.silent = true;
    app.use(errorResponses(createLogger('silent')));
    const router = fileRoutes({ files: store, links, clock: { now: () => new Date() } });
    app.use(router.routes());
    app.use(router.allowedMethods());
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    link = local(
      links.linkFor({ jobId: 'job', fileKey: 'acc/job.m4a', filename: 'My video.m4a', completedAt: null }, new Date()),
    );
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  const local = (signedLink: string) => {
    const signed = new URL(signedLink);
    return `${base}${signed.pathname}${signed.search}`;
  };

  const get = async (headers: Record<string, string> = {}, method = 'GET') => {
    const response = await fetch(link, { method, headers });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };

  it('sends validators with the file', async () => {
    const whole = await get();
    assert.equal(whole.status, 200);
    assert.deepEqual(whole.body, content);
    assert.match(whole.headers.get('etag') ?? '', /^"[A-Za-z0-9_-]+"$/);
    assert.ok(!Number.isNaN(Date.parse(whole.headers.get('last-modified') ?? '')));
  });

  it('answers HEAD with the status and headers GET would send, and no body', async () => {
    const head = await get({}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(content.length));
    assert.equal(head.headers.get('content-type'), 'audio/mp4');
    assert.equal(head.body.length, 0);
    const partial = await get({ Range: 'bytes=10-19' }, 'HEAD');
    assert.equal(partial.status, 206);
    assert.equal(partial.headers.get('content-length'), '10');
    assert.equal(partial.headers.get('content-range'), `bytes 10-19/${content.length}`);
  });

  it('serves one byte range as 206, and honours If-Range with the ETag or the date', async () => {
    const { headers } = await get();
    for (const validator of [headers.get('etag') ?? '', headers.get('last-modified') ?? '']) {
      const partial = await get({ Range: 'bytes=10-19', 'If-Range': validator });
      assert.equal(partial.status, 206, validator);
      assert.deepEqual(partial.body, content.subarray(10, 20));
    }
  });

  it('sends the whole file for an unknown unit, a stale If-Range, or a malformed range', async () => {
    const cases: Array<Record<string, string>> = [
      { Range: 'items=0-9' },
      { Range: 'bytes=0-9', 'If-Range': '"another-version"' },
      { Range: 'bytes=0-9', 'If-Range': 'Tue, 01 Jan 2019 00:00:00 GMT' },
      { Range: 'bytes=0-9', 'If-Range': 'W/"weak"' },
      { Range: 'bytes=100-0' },
      { Range: 'bytes=abc' },
      { Range: 'bytes=0-9,20-29' },
    ];
    for (const headers of cases) {
      const response = await get(headers);
      assert.equal(response.status, 200, JSON.stringify(headers));
      assert.equal(response.body.length, content.length, JSON.stringify(headers));
    }
  });

  it('answers 416 only for a well-formed range wholly beyond the end', async () => {
    const response = await get({ Range: 'bytes=5000-6000' });
    assert.equal(response.status, 416);
    assert.equal(response.headers.get('content-range'), `bytes */${content.length}`);
  });

  it('answers other methods with JSON naming the allowed ones', async () => {
    const response = await fetch(link, { method: 'DELETE' });
    assert.equal(response.status, 405);
    assert.match(response.headers.get('allow') ?? '', /GET/);
    assert.equal(typeof ((await response.json()) as { error: unknown }).error, 'string');
    const unknown = await fetch(link, { method: 'PROPFIND' });
    assert.equal(unknown.status, 501);
    assert.equal(typeof ((await unknown.json()) as { error: unknown }).error, 'string');
  });

  it('answers 410 for a file past its retention before the sweeper deletes it, and 403 for a link that merely expired', async () => {
    const source = path.join(dir, 'short-lived.m4a');
    await writeFile(source, content);
    await store.put('acc/short-lived.m4a', source);
    const retained = new SignedDownloadLinks(randomBytes(32), 'http://files.example', 3600, 3600);
    const file = { jobId: 'short', fileKey: 'acc/short-lived.m4a', filename: 'x.m4a' };
    // Completed two hours ago with an hour's retention: the file is due for deletion, and still on disk.
    const pastRetention = retained.linkFor(
      { ...file, completedAt: new Date(Date.now() - 2 * 3600_000).toISOString() },
      new Date(),
    );
    // Completed half an hour ago, a link issued (in this test) two hours ago: expired, the file well within retention.
    const expiredEarly = retained.linkFor(
      { ...file, completedAt: new Date(Date.now() - 1800_000).toISOString() },
      new Date(Date.now() - 2 * 3600_000),
    );
    const app = new Koa();
    app.silent = true;
    app.use(errorResponses(createLogger('silent')));
    const router = fileRoutes({ files: store, links: retained, clock: { now: () => new Date() } });
    app.use(router.routes());
    const other = createServer(app.callback());
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const on = (signed: string) => {
      const url = new URL(signed);
      return `http://127.0.0.1:${(other.address() as AddressInfo).port}${url.pathname}${url.search}`;
    };
    try {
      const gone = await fetch(on(pastRetention));
      assert.equal(gone.status, 410, 'past its retention: polling again will not help');
      assert.match((await gone.json()).error, /deleted after its retention period/);
      const expired = await fetch(on(expiredEarly));
      assert.equal(expired.status, 403);
      assert.match((await expired.json()).error, /expired; poll the job again/);
      await store.remove('acc/short-lived.m4a');
      assert.equal((await fetch(on(pastRetention))).status, 410, 'and once the sweeper deleted it');
      const forged = new URL(on(pastRetention));
      forged.searchParams.set('signature', '0'.repeat(64));
      assert.equal((await fetch(forged)).status, 403, 'a forged link learns nothing about the file');
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});
