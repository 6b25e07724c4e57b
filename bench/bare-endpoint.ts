import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import pg from 'pg';

export interface BareEndpoint {
  /** `http://127.0.0.1:<port>/download/` : append a job id. */
  base: string;
  close(): Promise<void>;
}

/**
 * The baseline for polling: the least a Koa service can do to answer with a
 * job row, one prepared primary-key lookup on a plain pg pool of the
 * service's size, the row serialised as JSON. A missing row answers 404,
 * which the load harness refuses, so a wrong id cannot pass for a fast baseline.
 */
export async function startBareEndpoint(connectionString: string, poolSize: number): Promise<BareEndpoint> {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  const app = new Koa();
  const router = new Router();
  router.get('/download/:jobId', async (ctx) => {
    const result = await pool.query({
      name: 'bare-job-by-id',
      text: 'SELECT * FROM download_jobs WHERE job_id = $1',
      values: [ctx.params.jobId],
    });
    if (result.rows.length === 0) ctx.status = 404;
    else ctx.body = result.rows[0];
  });
  app.use(router.routes());
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/download/`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.end();
    },
  };
}
