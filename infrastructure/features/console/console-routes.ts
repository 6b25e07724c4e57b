import Router from '@koa/router';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';

/** Where `npm run build` puts the console (console/ compiled, with its HTML and CSS). */
const CONSOLE_DIRECTORY = path.resolve(__dirname, '..', '..', '..', 'console');

// The console's pages run only their own files: no inline script or style, no other origin, no framing.
const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

/**
 * The web console: static files at `/` and `/console/<file>`, read once at
 * start-up into memory (a few kilobytes), so only the files the build put
 * there can ever be served, whatever the path asks for. Nothing here needs a
 * key: the page asks for one and sends it with its own API calls.
 */
export function consoleRoutes(directory: string = CONSOLE_DIRECTORY): Router {
  const files = loadFiles(directory);
  const router = new Router();
  const serve = (name: string) => (ctx: Context) => {
    const file = files.get(name);
    if (file === undefined) {
      ctx.status = 404;
      ctx.body = {
        error:
          name === 'index.html' ? 'The web console is not built; run npm run build' : `No such console file: ${name}`,
      };
      return;
    }
    ctx.set('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('ETag', file.etag);
    ctx.type = file.type;
    // Koa judges freshness only for a successful status, and a route's status is 404 until it sets one.
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = file.body;
  };
  router.get('/', serve('index.html'));
  router.get('/console/:file', (ctx) => serve(ctx.params.file ?? '')(ctx));
  return router;
}

function loadFiles(directory: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!existsSync(directory)) return files;
  for (const name of readdirSync(directory)) {
    const type = CONTENT_TYPES[path.extname(name)];
    if (type === undefined) continue;
    const body = readFileSync(path.join(directory, name));
    files.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` });
  }
  return files;
}
