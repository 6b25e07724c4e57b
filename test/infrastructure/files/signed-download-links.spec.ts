import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SignedDownloadLinks } from '../../../infrastructure/files/signed-download-links.js';

describe('signed download links', () => {
  const links = new SignedDownloadLinks(randomBytes(32), 'https://dl.example.com', 3600, 0);
  const now = new Date('2026-05-01T12:00:30Z');
  const file = {
    jobId: 'j1',
    fileKey: 'acc/j1.m4a',
    filename: 'My video.m4a',
    completedAt: '2026-05-01T11:59:00.250Z',
  };

  function parts(url: string) {
    const parsed = new URL(url);
    const [, , encodedKey, filename] = parsed.pathname.split('/');
    return {
      encodedKey,
      filename: decodeURIComponent(filename),
      expires: parsed.searchParams.get('expires') ?? undefined,
      signature: parsed.searchParams.get('signature') ?? undefined,
    };
  }

  it('produces an absolute URL under the public base that verifies until it expires', () => {
    const url = links.linkFor(file, now);
    assert.ok(url.startsWith('https://dl.example.com/files/'));
    const p = parts(url);
    assert.equal(Number(p.expires), Date.parse('2026-05-01T13:01:00Z') / 1000);
    assert.deepEqual(links.verify(p.encodedKey, p.filename, p.expires, p.signature, now), {
      fileKey: 'acc/j1.m4a',
      filename: 'My video.m4a',
    });
    assert.equal(
      links.verify(p.encodedKey, p.filename, p.expires, p.signature, new Date('2026-05-01T13:01:01Z')),
      null,
    );
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
    const foreign = new SignedDownloadLinks(randomBytes(32), 'https://dl.example.com', 3600, 0);
    assert.equal(foreign.verify(p.encodedKey, p.filename, p.expires, p.signature, now), null);
  });

  it('accepts only the spelling it writes: no padding, no standard base64 alphabet, no leading zeros in expires', () => {
    const odd = { jobId: 'j2', fileKey: 'acc/~~~?', filename: 'x.m4a', completedAt: null };
    const p = parts(links.linkFor(odd, now));
    assert.match(p.encodedKey, /[_-]/, 'the key chosen needs the URL-safe alphabet');
    assert.notEqual(links.verify(p.encodedKey, p.filename, p.expires, p.signature, now), null);
    const standard = p.encodedKey.replace(/-/g, '+').replace(/_/g, '/');
    const variants: Array<[string, string | undefined]> = [
      [`${p.encodedKey}=`, p.expires],
      [`${p.encodedKey}==`, p.expires],
      [standard, p.expires],
      [p.encodedKey, `0${p.expires}`],
      [p.encodedKey, `00${p.expires}`],
      [`${p.encodedKey}.`, p.expires],
    ];
    for (const [encodedKey, expires] of variants) {
      assert.equal(links.verify(encodedKey, p.filename, expires, p.signature, now), null, `${encodedKey} ${expires}`);
    }
    // Unused low bits in the last character decode to the same bytes; only the zero-bit spelling is accepted.
    const plain = parts(links.linkFor({ jobId: 'j3', fileKey: 'a', filename: 'x.m4a', completedAt: null }, now));
    assert.equal(plain.encodedKey, 'YQ');
    assert.equal(links.verify('YR', plain.filename, plain.expires, plain.signature, now), null);
  });

  describe('within the retention period', () => {
    const retained = new SignedDownloadLinks(randomBytes(32), 'https://dl.example.com', 3600, 2 * 3600);
    // Completed at 11:59:00.250: the file is deleted at 13:59:00.
    const deletedAt = Date.parse('2026-05-01T13:59:00Z') / 1000;

    it('never lets a link outlive its file: late in the retention period the link expires when the file is deleted', () => {
      const late = new Date('2026-05-01T13:30:10Z');
      const p = parts(retained.linkFor(file, late));
      assert.equal(Number(p.expires), deletedAt);
      assert.notEqual(retained.verify(p.encodedKey, p.filename, p.expires, p.signature, late), null);
      assert.equal(
        retained.verify(p.encodedKey, p.filename, p.expires, p.signature, new Date((deletedAt + 1) * 1000)),
        null,
      );
    });

    it('keeps the full lifetime while it ends before the deletion', () => {
      assert.equal(Number(parts(retained.linkFor(file, now)).expires), Date.parse('2026-05-01T13:01:00Z') / 1000);
    });

    it('caps nothing when files are kept for ever (retention 0) or the completion is unknown', () => {
      const late = new Date('2026-05-01T13:30:10Z');
      assert.equal(Number(parts(links.linkFor(file, late)).expires), Date.parse('2026-05-01T14:31:00Z') / 1000);
      assert.equal(
        Number(parts(retained.linkFor({ ...file, completedAt: null }, late)).expires),
        Date.parse('2026-05-01T14:31:00Z') / 1000,
      );
    });

    it('names the file of a correctly signed link once it has expired, and of no other', () => {
      const p = parts(retained.linkFor(file, now));
      const after = new Date((Number(p.expires) + 1) * 1000);
      assert.equal(
        retained.expiredLinkFile(p.encodedKey, p.filename, p.expires, p.signature, now),
        null,
        'still valid',
      );
      assert.deepEqual(retained.expiredLinkFile(p.encodedKey, p.filename, p.expires, p.signature, after), {
        fileKey: 'acc/j1.m4a',
        filename: 'My video.m4a',
      });
      assert.equal(retained.expiredLinkFile(p.encodedKey, 'other.m4a', p.expires, p.signature, after), null, 'altered');
      assert.equal(
        links.expiredLinkFile(p.encodedKey, p.filename, p.expires, p.signature, after),
        null,
        'signed with another key',
      );
    });
  });
});
