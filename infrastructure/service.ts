import { type RequestListener, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import type { DependencyContainer } from 'tsyringe';
import { Authenticate } from '../application/accounts/authenticate.js';
import { GetAccount } from '../application/accounts/get-account.js';
import { CancelDownload } from '../application/downloads/cancel-download.js';
import { GetDownloadJob } from '../application/downloads/get-download-job.js';
import { SubmitDownload } from '../application/downloads/submit-download.js';
import type { Clock } from '../application/ports/clock.js';
import type { EventStore } from '../application/ports/event-store.js';
import type { FileStore } from '../application/ports/file-store.js';
import type { Logger } from '../application/ports/logger.js';
import type { WorkDirs } from '../application/ports/work-dirs.js';
import type { WorkConsumer, WorkItem, WorkQueue, WorkRelay, WorkResult } from '../application/ports/work-queue.js';
import { ReleaseOrphanedReservation } from '../application/processes/release-orphaned-reservation.js';
import { RunDownload } from '../application/processes/run-download.js';
import { RunningDownloads } from '../application/processes/running-downloads.js';
import { SettleDownloadBilling } from '../application/processes/settle-download-billing.js';
import { DeliverWebhook } from '../application/processes/deliver-webhook.js';
import type { Delivery, WorkOutcome } from '../application/processes/work-outcome.js';
import { type JobMessage, ROUTED_EVENT_TYPES, WORK_KINDS, type WorkKind, routeEventToWork } from '../application/processes/work-routing.js';
import { CheckRequestRate } from '../application/rate-limits/check-request-rate.js';
import { accountsProjection } from '../projections/accounts-projection.js';
import { deletedFilesProjection } from '../projections/deleted-files-projection.js';
import { downloadJobsProjection } from '../projections/download-jobs-projection.js';
import { lookupJobsProjection } from '../projections/lookup-jobs-projection.js';
import { ProjectionRunner } from '../projections/projection-runner.js';
import type { Config, Role } from './config/config.js';
import { type Overrides, TOKENS, createContainer } from './container.js';
import type { SignedDownloadLinks } from './files/signed-download-links.js';
import { TemporaryWorkDirs } from './files/temporary-work-dirs.js';
import { answerClientErrorsInJson } from './http/client-errors.js';
import type { YtDlpSetup } from './extractor/create-yt-dlp-extractor.js';
import { createHttpApp } from './http/create-http-app.js';
import { requestRateLimit } from './http/middleware/request-rate-limit.js';
import { openApiDocument } from './http/openapi/document.js';
import { RequestValidation } from './http/request-validation.js';
import { accountRoutes } from './http/routes/account-routes.js';
import { consoleRoutes } from './http/routes/console-routes.js';
import { downloadRoutes } from './http/routes/download-routes.js';
import { fileRoutes } from './http/routes/file-routes.js';
import { operationsRoutes } from './http/routes/operations-routes.js';
import { UrlPolicies } from './http/url-policies.js';
import { startAdminEndpoint } from './cli/admin-endpoint.js';
import { RELAY_NAME } from './nats/event-relay.js';
import { PostgresExclusiveLock } from './postgres/postgres-exclusive-lock.js';
import { LeaderOnly } from './system/leader-only.js';
import { StallMonitor } from './observability/stall-monitor.js';
import type { ChannelSubscription, Storage } from './storage/open-storage.js';
import { openWorkQueue } from './work-queue/open-work-queue.js';
import { startWorkerBackgroundLoops } from './worker-background-loops.js';
import { lookupRouters, lookupWorkHandlers } from './lookups-composition.js';
import { createJobWatching } from './job-watching-composition.js';
import { ExpiredLookupJobsSweeper } from './postgres/expired-lookup-jobs-sweeper.js';
import type { WarmExtractor } from './extractor/warm/warm-extractor.js';
import { LeasedRateLimitStore } from './rate-limits/leased-rate-limit-store.js';
import { PostgresRateLimitStore } from './rate-limits/postgres-rate-limit-store.js';
import { MemoryRateLimitStore } from './rate-limits/memory-rate-limit-store.js';
import { createFileSweeper } from './retention/create-file-sweeper.js';
import { BroadcastJobCancellations } from './work-queue/broadcast-job-cancellations.js';
import { BroadcastProgressReports } from './live/broadcast-progress-reports.js';

export const PROJECTIONS = [accountsProjection, downloadJobsProjection, lookupJobsProjection, deletedFilesProjection];

export interface RunningService {
  /** The API's base address (http://host:port), when the api role runs. */
  url: string | null;
  container: DependencyContainer;
  projections: ProjectionRunner | null;
  relay: WorkRelay | null;
  stop(): Promise<void>;
}

interface Stoppable {
  name: string;
  stop(): Promise<void>;
}

/**
 * Starts the chosen roles in this process: `api` (HTTP), `projector` (read
 * models), `worker` (relay to JetStream and the work consumers). Each role can
 * run in its own processes; locks keep one projector and one relay active.
 */
export async function startService(config: Config, roles: ReadonlySet<Role>, logger: Logger, overrides: Overrides = {}): Promise<RunningService> {
  const { container, close } = await createContainer(config, logger, overrides);
  const stoppables: Stoppable[] = [];
  const store = container.resolve<EventStore>(TOKENS.eventStore);
  const db = container.resolve<Knex>(TOKENS.database);
  const clock = container.resolve<Clock>(TOKENS.clock);
  const storage = container.resolve<Storage>(TOKENS.storage);
  const processorOptions = { db, store, connectionString: config.storage.databaseUrl, acquireLock: storage.acquireLock, logger };
  const ytDlp = roles.has('api') || roles.has('worker') ? container.resolve<YtDlpSetup | null>(TOKENS.ytDlp) : null;

  let queue: WorkQueue | null = null;
  let projections: ProjectionRunner | null = null;
  let relay: WorkRelay | null = null;
  let url: string | null = null;
  try {
    await ytDlp?.detected;
    const settings = { natsUrl: config.mode === 'embedded' ? null : config.queue.natsUrl, natsStream: config.queue.natsStreamName, subjects: WORK_KINDS.map((kind) => workSubject(config, kind)) };
    queue = await openWorkQueue({ ...settings, connectionName: `video-download-service:${[...roles].join('+')}` }, processorOptions, logger);
    const workQueue = queue;
    logger.info({ mode: config.mode, storage: storage.description, workQueue: queue.kind }, `Running in ${config.mode} mode`);
    const cancellations = new BroadcastJobCancellations(queue.broadcast('cancellations'), logger);
    container.register(TOKENS.jobCancellations, { useValue: cancellations });

    if (roles.has('projector')) {
      projections = new ProjectionRunner(PROJECTIONS, processorOptions);
      await projections.start();
      stoppables.push({ name: 'projector', stop: () => (projections as ProjectionRunner).stop() });
      const sweeper = new ExpiredLookupJobsSweeper(db, clock, logger);
      sweeper.start();
      stoppables.push({ name: 'lookup sweeper', stop: () => sweeper.stop() });
    }

    if (roles.has('worker')) {
      const workDirs = container.resolve<WorkDirs>(TOKENS.workDirs);
      if (workDirs instanceof TemporaryWorkDirs) {
        const removed = await workDirs.removeStale();
        if (removed.length > 0) logger.info({ removed }, 'removed work directories left by processes that died');
      }
      relay = queue.relay({
        filter: { eventTypes: ROUTED_EVENT_TYPES },
        route: (event) => routeEventToWork(event).map((message) => ({ subject: workSubject(config, message.kind), payload: message.payload })),
      });
      await relay.start();
      stoppables.push({ name: 'relay', stop: () => (relay as WorkRelay).stop() });
      const selfUpdate = ytDlp?.selfUpdate;
      if (selfUpdate != null) {
        selfUpdate.start();
        stoppables.push({ name: 'yt-dlp self-update', stop: () => selfUpdate.stop() });
      }
      container.register(TOKENS.progressReports, { useValue: new BroadcastProgressReports(queue.broadcast('progress'), logger) });
      const spares = ytDlp?.extractor.spares;
      if (spares != null) {
        spares.start();
        stoppables.push({ name: 'spare yt-dlp processes', stop: async () => spares.stop() });
      }
      const running = container.resolve(RunningDownloads);
      const listening = cancellations.listen((jobId) => running.cancel(jobId));
      stoppables.push({ name: 'cancellations', stop: () => listening.stop() });
      const consumers = workConsumers(container, config, queue);
      for (const [, consumer] of consumers) await consumer.start();
      // Side by side: each stop waits for its pulls to expire and its handlers to drain, seconds that would add up in turn.
      stoppables.push({ name: 'work consumers', stop: async () => void (await Promise.all(consumers.map(([, consumer]) => consumer.stop()))) });
      // One worker process of the deployment records dead letters and reconciles; the others stand by.
      const background = new LeaderOnly(
        'worker background loops',
        new PostgresExclusiveLock({ connectionString: config.storage.databaseUrl, key: 'worker:background-loops', logger, acquireLock: storage.acquireLock }),
        () => startWorkerBackgroundLoops(container, config, workQueue, logger),
        logger,
      );
      background.start();
      stoppables.push({ name: 'worker background loops', stop: () => background.stop() });
    }

    // Submissions look videos up: the API's helpers start now, in the background, rather than on the first request.
    if (roles.has('api')) void container.resolve<WarmExtractor | null>(TOKENS.warmExtractor)?.start();
    if (roles.has('sweeper') && config.retention.fileRetentionSeconds > 0) {
      const sweeper = createFileSweeper(container, config.retention, config.storage, logger);
      sweeper.start();
      stoppables.push({ name: 'sweeper', stop: () => sweeper.stop() });
    }

    if (roles.has('api')) {
      // Revocations reach every API process through LISTEN: a connection of its own on a server, PGlite's own listeners embedded.
      if (config.security.apiKeyCacheTtlSeconds > 0) {
        const keyRevocations = container.resolve<ChannelSubscription>(TOKENS.keyRevocations);
        await keyRevocations.start();
        stoppables.push({ name: 'key revocations', stop: () => keyRevocations.close() });
      }
      const jobViewChanges = container.resolve<ChannelSubscription>(TOKENS.jobViewChanges);
      await jobViewChanges.start();
      stoppables.push({ name: 'job view changes', stop: () => jobViewChanges.close() });
      const links = container.resolve<SignedDownloadLinks>(TOKENS.downloadLinks);
      // Stalls are measured on the PostgreSQL event store; EventStoreDB's order does not wait on transactions, nor PGlite's single session.
      const stalls = config.mode === 'server' && config.storage.eventStoreUrl === null ? new StallMonitor(db, [...PROJECTIONS.map((projection) => projection.name), RELAY_NAME]) : null;
      stalls?.register(container.resolve<Registry>(TOKENS.metrics));
      const lagWithinLimit = async () => Object.values((await stalls?.processorLagSeconds()) ?? {}).every((lag) => lag * 1000 <= config.observability.readyMaxLagMs);
      const validation = new RequestValidation();
      const urls = new UrlPolicies(config.platforms, config.webhooks);
      const watching = createJobWatching(container, config, validation, workQueue.broadcast('progress'));
      await watching.start();
      stoppables.push({ name: 'live job status', stop: () => watching.stop() });
      const app = createHttpApp({
        logger,
        metrics: container.resolve<Registry>(TOKENS.metrics),
        legacyApiPrefixes: config.http.legacyApiPrefixes,
        bodyLimitBytes: config.http.bodyLimitBytes,
        requestLogSamplePercent: config.observability.requestLogSamplePercent,
        authenticate: container.resolve(Authenticate),
        openApiDocument,
        // Embedded, one process serves every request, so its memory is the shared store.
        afterAuthentication: requestRateLimit(
          new CheckRequestRate(
            config.mode === 'embedded' ? new MemoryRateLimitStore() : new LeasedRateLimitStore(await PostgresRateLimitStore.open(db), config.rateLimits.leasePercent / 100),
            config.rateLimits.limits,
          ),
        ),
        apiRouters: [
          downloadRoutes({
            submitDownload: container.resolve(SubmitDownload),
            getDownloadJob: container.resolve(GetDownloadJob),
            cancelDownload: new CancelDownload(
              container.resolve(TOKENS.downloadJobCommands),
              cancellations,
              clock,
            ),
            links,
            clock,
            validation,
            urls,
            progressOf: (jobId) => watching.progressOf(jobId),
          }),
          accountRoutes({ getAccount: container.resolve(GetAccount) }),
          ...lookupRouters(container, validation, urls),
          ...watching.routers,
        ],
        publicRouters: [
          consoleRoutes(),
          fileRoutes({ files: container.resolve<FileStore>(TOKENS.fileStore), links, clock }),
          operationsRoutes({
            mode: config.mode,
            metrics: container.resolve<Registry>(TOKENS.metrics),
            details: () => ({ ytDlp: ytDlp?.version() ?? null }),
            readinessChecks: {
              postgres: async () => (await db.raw('select 1')) !== undefined,
              eventStore: () => store.ping(),
              [workQueue.kind === 'jetstream' ? 'nats' : 'workQueue']: () => workQueue.ping(),
              ...(stalls === null ? {} : { processorLag: lagWithinLimit }),
            },
            readinessDetails: async () => (stalls === null ? {} : { processorLagSeconds: await stalls.processorLagSeconds(), horizonAgeSeconds: await stalls.horizonAgeSeconds() }),
          }),
        ],
      });
      const server = await listen(app.callback(), config.http.host, config.http.port, { requestTimeout: config.http.requestTimeoutMs, headersTimeout: config.http.headersTimeoutMs });
      const address = server.address() as AddressInfo;
      url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address}:${address.port}`;
      // The HTTP server stops first, so no new work arrives while the rest winds down.
      stoppables.unshift({ name: 'http', stop: () => (watching.closeStreams(), closeServer(server, config.http.shutdownTimeoutMs)) });
      logger.info({ url }, 'API listening');
    }

    if (config.mode === 'embedded') {
      // Only this process may open the embedded database, so the CLIs reach it through here.
      const endpoint = await startAdminEndpoint({ directory: config.storage.embeddedDataDir, container, logger });
      stoppables.push({ name: 'admin endpoint', stop: () => endpoint.stop() });
    }
  } catch (error) {
    await stopAll(stoppables, logger);
    await queue?.close();
    await close();
    throw error;
  }

  let stopping: Promise<void> | null = null;
  return {
    url,
    container,
    projections,
    relay,
    stop() {
      stopping ??= (async () => {
        await stopAll(stoppables, logger);
        await queue?.close();
        await close();
      })();
      return stopping;
    },
  };
}

/** Subjects live under the stream's name, so several deployments (or test runs) share one NATS server without overlapping. */
function workSubject(config: Config, kind: WorkKind): string {
  return `${config.queue.natsStreamName}.${kind}`;
}

function workConsumers(container: DependencyContainer, config: Config, queue: WorkQueue): Array<[string, WorkConsumer]> {
  const common = { ackWaitMs: config.queue.workAckWaitMs };
  const runDownload = container.resolve(RunDownload);
  const settle = container.resolve(SettleDownloadBilling);
  const releaseOrphan = container.resolve(ReleaseOrphanedReservation);
  const deliverWebhook = container.resolve(DeliverWebhook);
  return [
    [workSubject(config, 'download'), queue.consumer({
      ...common,
      subject: workSubject(config, 'download'),
      concurrency: config.jobs.workerConcurrency,
      // Only a backstop: attempts are counted in the job stream, and outages of this service's own infrastructure are retried with backoff.
      maxDeliver: 1_000,
      handler: adapt((message, delivery) => runDownload.handle(message, delivery)),
    })],
    [workSubject(config, 'billing'), queue.consumer({ ...common, subject: workSubject(config, 'billing'), concurrency: 4, maxDeliver: 1_000, handler: adapt((message) => settle.handle(message)) })],
    [workSubject(config, 'reservation'), queue.consumer({ ...common, subject: workSubject(config, 'reservation'), concurrency: 2, maxDeliver: 1_000, handler: adapt((message) => releaseOrphan.handle(message)) })],
    // Each attempt comes back as a delayed redelivery of the one message, so it needs many deliveries.
    // Twice the sending slots are taken from the queue: the rest wait their account's turn (WebhookShares).
    [workSubject(config, 'webhook'), queue.consumer({ ...common, subject: workSubject(config, 'webhook'), concurrency: 2 * config.webhooks.concurrency, maxDeliver: 10_000, handler: adapt((message, delivery) => deliverWebhook.handle(message, delivery)) })],
    ...lookupWorkHandlers(container, config).map(({ kind, handler, concurrency, maxDeliver }): [string, WorkConsumer] => [
      workSubject(config, kind),
      queue.consumer({ ...common, subject: workSubject(config, kind), concurrency, maxDeliver, handler: adapt(handler) }),
    ]),
  ];
}

/** From the queue's terms to the application's: a message body becomes a JobMessage, an outcome an ack or a delayed retry. */
function adapt(handle: (message: JobMessage, delivery: Delivery) => Promise<WorkOutcome>) {
  return async (item: WorkItem): Promise<WorkResult> => {
    const outcome = await handle(item.data as JobMessage, { attempt: item.deliveryCount, leaseId: item.deliveryId, messageId: item.messageId, heartbeat: () => item.heartbeat(), signal: item.signal });
    return outcome.kind === 'done' ? 'ack' : { retryAfterMs: outcome.afterMs };
  };
}

/** Clients that send headers or a body too slowly are cut off (408), checked at least once a second. */
function listen(handler: RequestListener, host: string, port: number, timeouts: { requestTimeout: number; headersTimeout: number }): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer({ ...timeouts, connectionsCheckingInterval: Math.min(1_000, timeouts.headersTimeout) }, handler);
    answerClientErrorsInJson(server);
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Stops accepting, lets requests under way finish, then cuts whatever is left after the timeout. */
async function closeServer(server: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  await closed;
  clearTimeout(timer);
}

async function stopAll(stoppables: Stoppable[], logger: Logger): Promise<void> {
  for (const part of stoppables) {
    try {
      await part.stop();
    } catch (error) {
      logger.error({ err: error, part: part.name }, 'failed to stop cleanly');
    }
  }
}
