import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SealedFileReferences } from '../../../infrastructure/files/sealed-file-reference.js';
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
    const [, , reference, filename] = parsed.pathname.split('/');
    return {
      reference,
      filename: decodeURIComponent(filename),
      expires: parsed.searchParams.get('expires') ?? undefined,
      signature: parsed.searchParams.get('signature') ?? undefined,
    };
  }
  const open = (p: ReturnType<typeof parts>, on = links) => on.open(p.reference, p.filename, p.expires, p.signature);

  it('produces an absolute URL under the public base naming its file and expiry', () => {
    const url = links.linkFor(file, now);
    assert.ok(url.startsWith('https://dl.example.com/files/'));
    const p = parts(url);
    assert.equal(Number(p.expires), Date.parse('2026-05-01T13:01:00Z') / 1000);
    assert.deepEqual(open(p), {
      fileKey: 'acc/j1.m4a',
      deletedAt: null,
      filename: 'My video.m4a',
      expiresAt: Date.parse('2026-05-01T13:01:00Z') / 1000,
    });
  });

  it('names neither the account nor the job: the file reference is sealed, not encoded', () => {
    const accountId = '6f1c2a9e-0d4b-4c55-9b1e-2f7a3c8d9e10';
    const jobId = '0b7e4d21-5a3c-4f8e-8d2b-9c1a7e6f5d43';
    const url = links.linkFor({ ...file, jobId, fileKey: `${accountId}/${jobId}.1.m4a` }, now);
    const { reference } = parts(url);
    const decoded = Buffer.from(reference, 'base64url').toString('latin1');
    for (const secret of [accountId, jobId, accountId.slice(0, 8), jobId.slice(0, 8)]) {
      assert.ok(!url.includes(secret), `the URL shows ${secret}`);
      assert.ok(!decoded.includes(secret), `the reference decodes to ${secret}`);
    }
    assert.equal(open(parts(url))?.fileKey, `${accountId}/${jobId}.1.m4a`);
  });

  it('gives the same URL to polls within the same minute, from any instance with the same key', () => {
    const key = randomBytes(32);
    const [one, two] = [0, 1].map(() => new SignedDownloadLinks(key, 'https://dl.example.com', 3600, 0));
    assert.equal(links.linkFor(file, now), links.linkFor(file, new Date(now.getTime() + 20_000)));
    assert.equal(one.linkFor(file, now), two.linkFor(file, now));
  });

  it('rejects any altered part, other spellings and links signed with another key', () => {
    const p = parts(links.linkFor(file, now));
    const other = parts(links.linkFor({ ...file, fileKey: 'acc/j2.m4a' }, now));
    assert.equal(open({ ...p, reference: other.reference }), null);
    assert.equal(open({ ...p, filename: 'other.m4a' }), null);
    assert.equal(open({ ...p, expires: String(Number(p.expires) + 60) }), null);
    assert.equal(open({ ...p, expires: `0${p.expires}` }), null);
    assert.equal(open({ ...p, signature: undefined }), null);
    assert.equal(open({ ...p, signature: 'zz' }), null);
    assert.equal(open({ ...p, reference: `${p.reference}=` }), null);
    const foreign = new SignedDownloadLinks(randomBytes(32), 'https://dl.example.com', 3600, 0);
    assert.equal(open(p, foreign), null);
    // Links of the earlier form, whose first segment was the file key in base64url, no longer open.
    const plainKey = Buffer.from('acc/j1.m4a').toString('base64url');
    assert.equal(open({ ...p, reference: plainKey }), null);
  });

  it('opens a sealed reference only as sealed, with the key it was sealed with', () => {
    const key = randomBytes(32);
    const sealed = new SealedFileReferences(key).seal({ fileKey: 'acc/j1.m4a', deletedAt: 1_800_000_000 });
    assert.deepEqual(new SealedFileReferences(key).open(sealed), { fileKey: 'acc/j1.m4a', deletedAt: 1_800_000_000 });
    assert.equal(new SealedFileReferences(randomBytes(32)).open(sealed), null);
    const bytes = Buffer.from(sealed, 'base64url');
    for (const index of [0, 15, bytes.length - 1]) {
      const flipped = Buffer.from(bytes);
      flipped[index] ^= 1;
      assert.equal(new SealedFileReferences(key).open(flipped.toString('base64url')), null, `byte ${index}`);
    }
    assert.equal(new SealedFileReferences(key).open(sealed.slice(0, 20)), null);
  });

  describe('within the retention period', () => {
    const retained = new SignedDownloadLinks(randomBytes(32), 'https://dl.example.com', 3600, 2 * 3600);
    // Completed at 11:59:00.250: the file is deleted at 13:59:00.
    const deletedAt = Date.parse('2026-05-01T13:59:00Z') / 1000;

    it('never lets a link outlive its file, and carries when the file is deleted', () => {
      const late = new Date('2026-05-01T13:30:10Z');
      const p = parts(retained.linkFor(file, late));
      assert.equal(Number(p.expires), deletedAt);
      assert.equal(open(p, retained)?.deletedAt, deletedAt);
    });

    it('keeps the full lifetime while it ends before the deletion', () => {
      assert.equal(Number(parts(retained.linkFor(file, now)).expires), Date.parse('2026-05-01T13:01:00Z') / 1000);
    });

    it('caps nothing when files are kept for ever (retention 0) or the completion is unknown', () => {
      const late = new Date('2026-05-01T13:30:10Z');
      assert.equal(Number(parts(links.linkFor(file, late)).expires), Date.parse('2026-05-01T14:31:00Z') / 1000);
      const unknown = parts(retained.linkFor({ ...file, completedAt: null }, late));
      assert.equal(Number(unknown.expires), Date.parse('2026-05-01T14:31:00Z') / 1000);
      assert.equal(open(unknown, retained)?.deletedAt, null);
    });
  });
});
