import 'reflect-metadata';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type FixturePlatform, startFixturePlatform } from '../../test/fixtures/platform/fixture-platform.js';
import { checkAccountBilling } from './billing-invariants.js';
import { readBillingRecords } from './billing-records.js';
import { CLUSTER_FAULT_CLASSES, FAULT_CLASSES, FaultInjector, type InjectedFault } from './fault-injector.js';
import { RECOVERY_BOUND_MS, checkFaults } from './fault-invariants.js';
import { runFaultSchedule } from './fault-schedule.js';
import { freePort } from './free-port.js';
import { checkBatches } from './batch-invariants.js';
import { checkSubscriptions } from './subscription-invariants.js';
import { readSubscriptionHistories, trackSubscriptionWork } from './subscription-records.js';
import { checkJobs } from './job-invariants.js';
import { checkServerErrors } from './response-invariants.js';
import { JobLedger } from './job-ledger.js';
import { JobPoller } from './job-poller.js';
import { type MarkedProcess, SOAK_MARKER_VARIABLE, processesMarked } from './leftover-processes.js';
import { OwnNats } from './own-nats.js';
import { startNatsCluster } from './own-nats-cluster.js';
import { OwnPostgres } from './own-postgres.js';
import { checkProcessesRunning, checkProcessesStopped } from './process-invariants.js';
import { SeededRandom } from './seeded-random.js';
import { ServiceFleet } from './service-fleet.js';
import { type SoakAccount, openAccounts } from './soak-accounts.js';
import { soakEnvironment } from './soak-environment.js';
import { soakFigures } from './soak-figures.js';
import { SoakHttp } from './soak-http.js';
import { type SoakOptions, parseSoakOptions } from './soak-options.js';
import { checkWebhooks, deliveryHistories } from './webhook-invariants.js';
import { WebhookReceivers } from './webhook-receivers.js';
import { Workload } from './workload.js';

const ACCOUNTS = 6;

/**
 * `npm run soak -- [--seed N] [--duration 15m | --short] [--cluster] [--keep]`: the
 * service as several processes on servers of the soak's own, under clients
 * and injected faults on a seeded schedule; then a bounded quiet period and
 * the invariants. Exits 1 when any is broken.
 */
async function main(): Promise<number> {
  const options = parseSoakOptions(process.argv.slice(2));
  const runDir = await mkdtemp(path.join(tmpdir(), 'vds-soak-'));
  // The PostgreSQL server runs as its own user and must reach its directory.
  await chmod(runDir, 0o711);
  console.log(
    `soak: seed ${options.seed}, ${options.cluster ? 'a 3-node NATS cluster, ' : ''}${options.durationMs / 1000} s of load and faults, quiet period up to ${options.quietMs / 1000} s; run directory ${runDir}`,
  );
  const cleanup: Array<() => Promise<unknown>> = [];
  const cleanUp = async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
    if (!options.keep) await rm(runDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    console.log('soak: interrupted; cleaning up');
    void cleanUp().finally(() => process.exit(130));
  });
  try {
    return await soak(options, runDir, cleanup);
  } finally {
    await cleanUp();
  }
}

async function soak(options: SoakOptions, runDir: string, cleanup: Array<() => Promise<unknown>>): Promise<number> {
  const postgres = await OwnPostgres.start(runDir);
  cleanup.push(() => postgres.stopQuietly());
  const nats = options.cluster ? await startNatsCluster(runDir) : [await OwnNats.start(runDir)];
  cleanup.push(() => Promise.all(nats.map((node) => node.kill())));
  const platform: FixturePlatform = await startFixturePlatform();
  cleanup.push(() => platform.stop());
  const receivers = await WebhookReceivers.start();
  cleanup.push(() => receivers.stop());

  const natsUrl = nats.map((node) => node.url).join(',');
  const env = soakEnvironment({
    databaseUrl: postgres.url('video_download'),
    natsUrl,
    natsReplicas: nats.length,
    runDir,
    platform,
  });
  const fleet = new ServiceFleet(env, runDir, postgres.port);
  let stopped: Array<{ name: string; exitedAfterMs: number | null }> | null = null;
  cleanup.push(async () => stopped ?? fleet.stopAll(5_000));
  // One after the other: the first creates the database and its schema.
  const ports = [await freePort(), await freePort()];
  await fleet.add('api-1', ['api'], ports[0]);
  await fleet.add('api-2', ['api'], ports[1]);
  for (const name of ['projector-1', 'projector-2']) await fleet.add(name, ['projector'], null);
  for (const name of ['worker-1', 'worker-2']) await fleet.add(name, ['worker'], null);

  const http = new SoakHttp(ports.map((port) => `http://127.0.0.1:${port}`));
  const accounts = await openAccounts(ACCOUNTS, env, http);
  const ledger = new JobLedger();
  const random = new SeededRandom(options.seed);
  const workload = new Workload(http, ledger, accounts, platform, receivers, new SeededRandom(options.seed + 1));
  const poller = new JobPoller(http, ledger);
  const injector = new FaultInjector(fleet, postgres, nats, platform, env.DATABASE_URL, random);
  const canary = (since: number, deadline: number) =>
    completedDownloadAfter(workload, poller, accounts[0], since, deadline);

  const from = Date.now();
  const until = from + options.durationMs;
  const classes = options.cluster ? CLUSTER_FAULT_CLASSES : FAULT_CLASSES;
  poller.start();
  const [, faults] = await Promise.all([
    workload.run(until),
    runFaultSchedule(injector, classes, random, { from, until }, (fault) =>
      canary(fault.at, fault.endedAt + RECOVERY_BOUND_MS),
    ),
  ]);
  await poller.stop();
  await workload.endSubscriptions();

  console.log(`soak: load and faults over; quiet period (up to ${options.quietMs / 1000} s)`);
  const quietUntil = Date.now() + options.quietMs;
  await poller.untilAllTerminal(quietUntil);
  // The subscriptions' jobs are known from their streams: tracked from now, and polled to their end like the rest.
  const subscriptionHistories = await readSubscriptionHistories(env.DATABASE_URL, ledger);
  trackSubscriptionWork(subscriptionHistories, ledger);
  await poller.untilAllTerminal(Math.max(quietUntil, Date.now() + 60_000));
  const histories = await deliveryHistories(env.DATABASE_URL, ledger, quietUntil);
  const finalCanary = await canary(Date.now(), Date.now() + 60_000);

  const broken: string[] = [];
  if (finalCanary === null) broken.push('a download submitted after the quiet period did not complete within 60 s');
  broken.push(...checkFaults(faults));
  broken.push(...checkJobs(ledger, faults));
  broken.push(...checkServerErrors(http.serverErrors, faults));
  broken.push(...checkBatches(ledger.batches));
  broken.push(...checkSubscriptions(subscriptionHistories));
  broken.push(...checkWebhooks(ledger, histories, receivers));
  for (const record of await readBillingRecords(accounts, http, env))
    broken.push(...checkAccountBilling(record, ledger));
  broken.push(...(await checkProcessesRunning(fleet, http)));
  stopped = await fleet.stopAll(30_000);
  broken.push(...checkProcessesStopped(stopped, await leftBehind(env[SOAK_MARKER_VARIABLE])));

  report(options.seed, faults, ledger, http, broken);
  return broken.length === 0 ? 0 : 1;
}

/**
 * From `since` until a download submitted now or later completes; each one
 * that fails (a later fault may hit it) is followed by another, until
 * `deadline`. Null when none completed in time.
 */
async function completedDownloadAfter(
  workload: Workload,
  poller: JobPoller,
  account: SoakAccount,
  since: number,
  deadline: number,
): Promise<number | null> {
  while (Date.now() < deadline) {
    const job = await workload.download(account, true);
    if (job === null || !(await poller.untilTerminal(job, deadline))) return null;
    if (job.status === 'COMPLETED') return (job.terminalAt as number) - since;
  }
  return null;
}

/** The fleet's processes and their descendants still running a while after the stop: exits and reaping take a moment. */
async function leftBehind(marker: string): Promise<MarkedProcess[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const marked = await processesMarked(marker);
    if (marked.length === 0 || Date.now() > deadline) return marked;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function report(seed: number, faults: InjectedFault[], ledger: JobLedger, http: SoakHttp, broken: string[]): void {
  console.log('\nsoak: faults injected');
  for (const fault of faults)
    console.log(
      `  ${new Date(fault.at).toISOString()} ${fault.kind}: ${fault.detail}; recovered ${fault.recoveredAfterMs === null ? 'never' : `after ${(fault.recoveredAfterMs / 1000).toFixed(1)} s`}`,
    );
  console.log('\nsoak: figures');
  for (const line of soakFigures(ledger, faults, http)) console.log(`  ${line}`);
  console.log(`\nsoak: ${broken.length} broken invariants (seed ${seed})`);
  for (const line of broken) console.log(`  BROKEN ${line}`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(2);
  },
);
