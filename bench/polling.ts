import { randomUUID } from 'node:crypto';
import { startBareEndpoint } from './bare-endpoint.js';
import { compareUnderLoad, describeComparison } from './compare-under-load.js';
import type { Driver } from './driver.js';
import type { ServiceProcess } from './service-process.js';
import { LOAD } from './settings.js';

/**
 * GET /download/{jobId} in the service process (authentication, read model,
 * link signing, the spec's shapes, request log) against the bare endpoint's
 * lookup of the same row, both loaded by wrk with the same settings.
 */
export async function benchPolling(
  service: ServiceProcess,
  driver: Driver,
  videoUrl: string,
  variant = '',
): Promise<void> {
  const { accountId, apiKey } = await driver.openAccount();
  const headers = { Authorization: `Bearer ${apiKey}` };
  const bare = await startBareEndpoint(service.config.storage.databaseUrl, service.config.storage.databasePoolSize);
  try {
    for (const status of ['IN_QUEUE', 'COMPLETED'] as const) {
      const jobId = randomUUID();
      await driver.seedJob(accountId, jobId, status, videoUrl);
      const comparison = await compareUnderLoad(
        { url: `${service.api}/download/${jobId}`, headers },
        { url: `${bare.base}${jobId}` },
        LOAD,
      );
      const label = `polling${variant} (${status === 'IN_QUEUE' ? 'pending' : 'completed'} job, ${LOAD.connections} connections, median of ${LOAD.rounds})`;
      console.log(describeComparison(label, 'bare Koa+pg', comparison));
    }
  } finally {
    await bare.close();
  }
}
