import { createHash } from 'node:crypto';
import path from 'node:path';
import Router from '@koa/router';
import type { Clock } from '../../../application/ports/clock.js';
import type { FileStore, StoredFileInfo } from '../../../application/ports/file-store.js';
import { FILES_ROUTE_PREFIX, type SignedDownloadLinks } from '../../files/signed-download-links.js';
import { HttpError } from '../../http/http-error.js';
import { answerRange } from './range-request.js';

/**
 * Serves produced files behind signed links: streamed (memory stays flat
 * whatever the size), with single-range requests answered 206, ETag and
 * Last-Modified for resuming with If-Range, and HEAD answered like GET.
 */
export function fileRoutes(deps: { files: FileStore; links: SignedDownloadLinks; clock: Clock }): Router {
  const router = new Router({ prefix: FILES_ROUTE_PREFIX });

  router.get('/:encodedKey/:filename', async (ctx) => {
    const link = deps.links.open(
      ctx.params.encodedKey ?? '',
      ctx.params.filename ?? '',
      typeof ctx.query.expires === 'string' ? ctx.query.expires : undefined,
      typeof ctx.query.signature === 'string' ? ctx.query.signature : undefined,
    );
    if (link === null) throw new HttpError(403, 'This download link is invalid; poll the job again for a fresh one');
    const now = deps.clock.now().getTime();
    // Past its retention the file is gone for every link, whether or not the sweeper has deleted it yet: no poll helps.
    if (link.deletedAt !== null && now >= link.deletedAt * 1000) throw deletedFile();
    if (now > link.expiresAt * 1000)
      throw new HttpError(403, 'This download link has expired; poll the job again for a fresh one');
    const file = await deps.files.stat(link.fileKey);
    // A correctly signed link names a file that existed: it was deleted when its retention period ran out.
    if (file === null) throw deletedFile();

    ctx.type = path.extname(link.filename) || 'application/octet-stream';
    ctx.attachment(link.filename);
    ctx.set('Accept-Ranges', 'bytes');
    ctx.set('Cache-Control', 'private, max-age=300');
    const etag = entityTag(file);
    const lastModified = file.modifiedAt?.toUTCString() ?? null;
    ctx.set('ETag', etag);
    if (lastModified !== null) ctx.set('Last-Modified', lastModified);

    // HEAD gets the status and headers GET would, and no body (Koa would answer 204 to an empty one).
    const answer = answerRange(
      { range: ctx.get('Range'), ifRange: ctx.get('If-Range') },
      { size: file.size, etag, lastModified },
    );
    if (answer.kind === 'unsatisfiable') {
      throw new HttpError(416, 'Requested range not satisfiable', undefined, {
        'Content-Range': `bytes */${file.size}`,
      });
    }
    if (answer.kind === 'partial') {
      const { start, end } = answer;
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${start}-${end}/${file.size}`);
      if (ctx.method !== 'HEAD') ctx.body = deps.files.read(link.fileKey, { start, end });
      ctx.length = end - start + 1;
      return;
    }
    ctx.status = 200;
    if (ctx.method !== 'HEAD') ctx.body = deps.files.read(link.fileKey);
    ctx.length = file.size;
  });

  return router;
}

/** Stored files never change under their key, so key, size and time name one version. */
function deletedFile(): HttpError {
  return new HttpError(
    410,
    'The file was deleted after its retention period and cannot be downloaded again; submit the download again',
  );
}

function entityTag(file: StoredFileInfo): string {
  const digest = createHash('sha256')
    .update(`${file.key}\n${file.size}\n${file.modifiedAt?.getTime() ?? ''}`)
    .digest('base64url');
  return `"${digest.slice(0, 27)}"`;
}
