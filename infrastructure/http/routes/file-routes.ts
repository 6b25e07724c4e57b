import path from 'node:path';
import Router from '@koa/router';
import parseRange from 'range-parser';
import type { Clock } from '../../../application/ports/clock.js';
import type { FileStore } from '../../../application/ports/file-store.js';
import { FILES_ROUTE_PREFIX, type SignedDownloadLinks } from '../../files/signed-download-links.js';
import { HttpError } from '../http-error.js';

/**
 * Serves produced files behind signed links: streamed (memory stays flat
 * whatever the size), with single-range requests answered 206.
 */
export function fileRoutes(deps: { files: FileStore; links: SignedDownloadLinks; clock: Clock }): Router {
  const router = new Router({ prefix: FILES_ROUTE_PREFIX });

  router.get('/:encodedKey/:filename', async (ctx) => {
    const link = deps.links.verify(
      ctx.params.encodedKey ?? '',
      ctx.params.filename ?? '',
      typeof ctx.query.expires === 'string' ? ctx.query.expires : undefined,
      typeof ctx.query.signature === 'string' ? ctx.query.signature : undefined,
      deps.clock.now(),
    );
    if (link === null) throw new HttpError(403, 'This download link is invalid or has expired; poll the job again for a fresh one');
    const file = await deps.files.stat(link.fileKey);
    // A correctly signed link names a file that existed: it was deleted when its retention period ran out.
    if (file === null) throw new HttpError(410, 'The file was deleted after its retention period and cannot be downloaded again; submit the download again');

    ctx.type = path.extname(link.filename) || 'application/octet-stream';
    ctx.attachment(link.filename);
    ctx.set('Accept-Ranges', 'bytes');
    ctx.set('Cache-Control', 'private, max-age=300');

    const rangeHeader = ctx.get('Range');
    if (rangeHeader !== '') {
      const ranges = parseRange(file.size, rangeHeader, { combine: true });
      if (ranges === -1) {
        throw new HttpError(416, 'Requested range not satisfiable', undefined, { 'Content-Range': `bytes */${file.size}` });
      }
      // Several ranges would need a multipart body; answering the whole file is allowed instead.
      if (ranges !== -2 && ranges.length === 1) {
        const [{ start, end }] = ranges;
        ctx.status = 206;
        ctx.set('Content-Range', `bytes ${start}-${end}/${file.size}`);
        ctx.length = end - start + 1;
        ctx.body = ctx.method === 'HEAD' ? null : deps.files.read(link.fileKey, { start, end });
        return;
      }
    }
    ctx.status = 200;
    ctx.length = file.size;
    ctx.body = ctx.method === 'HEAD' ? null : deps.files.read(link.fileKey);
  });

  return router;
}
