import { randomUUID } from 'node:crypto';
import { compareUnderLoad, describeComparison } from './compare-under-load.js';
import { Driver } from './driver.js';
import { seedDownloadJobRows } from './seed-store.js';
import { type ServiceProcess, startServiceProcess } from './service-process.js';
import { LOAD, QUICK } from './settings.js';

/**
 * Polling a completed job with BENCH_JOB_ROWS (default 1 000 000) rows in the
 * read model, against the same service code over a read model holding only
 * the polled job: two service processes, loaded alternately by wrk.
 */
export async function benchPollingAtScale(
  small: ServiceProcess,
  smallDriver: Driver,
  videoUrl: string,
  env: Record<string, string>,
): Promise<void> {
  const rows = Number(process.env.BENCH_JOB_ROWS ?? (QUICK ? 100_000 : 1_000_000));
  const large = await startServiceProcess({ label: 'bench_1m', roles: ['api', 'projector'], env });
  const largeDriver = await Driver.open(large);
  try {
    const target = async (service: ServiceProcess, driver: Driver) => {
      const { accountId, apiKey } = await driver.openAccount();
      const jobId = randomUUID();
      await driver.seedJob(accountId, jobId, 'COMPLETED', videoUrl);
      return { accountId, url: `${service.api}/download/${jobId}`, headers: { Authorization: `Bearer ${apiKey}` } };
    };
    const smallTarget = await target(small, smallDriver);
    const largeTarget = await target(large, largeDriver);
    const seeding = performance.now();
    await seedDownloadJobRows(largeDriver.db, rows, largeTarget.accountId);
    const seeded = ((performance.now() - seeding) / 1000).toFixed(1);
    const comparison = await compareUnderLoad(largeTarget, smallTarget, LOAD);
    console.log(
      describeComparison(
        `polling with ${rows.toLocaleString('en')} jobs in the read model (seeded in ${seeded} s)`,
        'with one job',
        comparison,
      ),
    );
  } finally {
    await largeDriver.close();
    await large.stop();
  }
}
