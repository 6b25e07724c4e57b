import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SignedDownloadLinks } from '../../../infrastructure/files/signed-download-links.js';

describe('signed download links', () => {
  const links = new SignedDownloadLinks(randomBytes(32), 'https://dl.example.com', 3600);
  const now = new Date('2026-05-01T12:00:30Z');
  const file = { jobId: 'j1', fileKey: 'acc/j1.m4a', filename: 'My video.m4a' };

  function parts(url: string) {
    const parsed = new URL(url);
    const [, , encodedKey, filename] = parsed.pathname.split('/');
    return { encodedKey, filename: decodeURIComponent(filename), expires: parsed.searchParams.get('expires') ?? undefined, signature: parsed.searchParams.get('signature') ?? undefined };
  }

  it('produces an absolute URL under the public base that verifies until it expires', () => {
    const url = links.linkFor(file, now);
    assert.ok(url.startsWith('https://dl.example.com/files/'));
    const p = parts(url);
    assert.equal(Number(p.expires), Date.parse('2026-05-01T13:01:00Z') / 1000);
    assert.deepEqual(links.verify(p.encodedKey, p.filename, p.expires, p.signature, now), { fileKey: 'acc/j1.m4a', filename: 'My video.m4a' });
    assert.equal(links.verify(p.encodedKey, p.filename, p.expires, p.signature, new Date('2026-05-01T13:01:01Z')), null);
  });

  it('gives the same URL to polls within the same minute', () => {
    assert.equal(links.linkFor(file, now), links.linkFor(file, new Date(now.getTime() + 20_000)));
  });

  it('rejects any altered part and links signed with another key', () => {
    const p = parts(links.linkFor(file, now));
    const otherKey = Buffer.from('acc/j2.m4a').toString('base64url');
    assert.equal(links.verify(otherKey, p.filename, p.expires, p.signature, now), null);
    assert.equal(links.verify(p.encodedKey, 'other.m4a', p.expires, p.signature, now), null);
    assert.equal(links.verify(p.encodedKey, p.filename, String(Number(p.expires) + 60), p.signature, now), null);
    assert.equal(links.verify(p.encodedKey, p.filename, p.expires, undefined, now), null);
    assert.equal(links.verify(p.encodedKey, p.filename, p.expires, 'zz', now), null);
    const foreign = new SignedDownloadLinks(randomBytes(32), 'https://dl.example.com', 3600);
    assert.equal(foreign.verify(p.encodedKey, p.filename, p.expires, p.signature, now), null);
  });
});
