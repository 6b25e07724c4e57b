import { type RequestListener, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import type { JetStreamManager, NatsConnection } from 'nats';
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
import { ReleaseOrphanedReservation } from '../application/processes/release-orphaned-reservation.js';
import { RunDownload } from '../application/processes/run-download.js';
import { RunningDownloads } from '../application/processes/running-downloads.js';
import { SettleDownloadBilling } from '../application/processes/settle-download-billing.js';
import type { Delivery, WorkOutcome } from '../application/processes/work-outcome.js';
import { type JobMessage, ROUTED_EVENT_TYPES, WORK_KINDS, type WorkKind, routeEventToWork } from '../application/processes/work-routing.js';
import { CheckRequestRate } from '../application/rate-limits/check-request-rate.js';
import { accountsProjection } from '../projections/accounts-projection.js';
import { deletedFilesProjection } from '../projections/deleted-files-projection.js';
import { downloadJobsProjection } from '../projections/download-jobs-projection.js';
import { ProjectionRunner } from '../projections/projection-runner.js';
import type { Config, Role } from './config/config.js';
import { type Overrides, TOKENS, createContainer } from './container.js';
import type { SignedDownloadLinks } from './files/signed-download-links.js';
import type { YtDlpSetup } from './extractor/create-yt-dlp-extractor.js';
import { createHttpApp } from './http/create-http-app.js';
import { requestRateLimit } from './http/middleware/request-rate-limit.js';
import { openApiDocument } from './http/openapi/document.js';
import { RequestValidation } from './http/request-validation.js';
import { accountRoutes } from './http/routes/account-routes.js';
import { downloadRoutes } from './http/routes/download-routes.js';
import { fileRoutes } from './http/routes/file-routes.js';
import { operationsRoutes } from './http/routes/operations-routes.js';
import { UrlPolicies } from './http/url-policies.js';
import { connectToNats, ensureWorkQueueStream } from './nats/connection.js';
import { EventRelay } from './nats/event-relay.js';
import { NatsJobCancellations, listenForCancellations } from './nats/job-cancellation-broadcast.js';
import { type WorkItem, type WorkResult, WorkQueueConsumer } from './nats/work-queue-consumer.js';
import { PostgresAccountPlans, PostgresRateLimitStore } from './rate-limits/postgres-rate-limit-store.js';
import { createFileSweeper } from './retention/create-file-sweeper.js';

export const PROJECTIONS = [accountsProjection, downloadJobsProjection, deletedFilesProjection];

export interface RunningService {
  /** The API's base address (http://host:port), when the api role runs. */
  url: string | null;
  container: DependencyContainer;
  projections: ProjectionRunner | null;
  relay: EventRelay | null;
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
  const processorOptions = { db, store, connectionString: config.databaseUrl, logger };
  const ytDlp = roles.has('api') || roles.has('worker') ? container.resolve<YtDlpSetup | null>(TOKENS.ytDlp) : null;

  let nats: NatsConnection | null = null;
  let projections: ProjectionRunner | null = null;
  let relay: EventRelay | null = null;
  let url: string | null = null;
  try {
    await ytDlp?.detected;
    nats = await connectToNats({ url: config.natsUrl, name: `video-download-service:${[...roles].join('+')}`, logger });
    const natsConnection = nats;
    const jsm = await nats.jetstreamManager();
    await ensureWorkQueueStream(jsm, { name: config.natsStreamName, subjects: WORK_KINDS.map((kind) => workSubject(config, kind)) });

    if (roles.has('projector')) {
      projections = new ProjectionRunner(PROJECTIONS, processorOptions);
      await projections.start();
      stoppables.push({ name: 'projector', stop: () => (projections as ProjectionRunner).stop() });
    }

    if (roles.has('worker')) {
      relay = new EventRelay({
        ...processorOptions,
        js: nats.jetstream(),
        filter: { eventTypes: ROUTED_EVENT_TYPES },
        route: (event) => routeEventToWork(event).map((message) => ({ subject: workSubject(config, message.kind), payload: message.payload })),
      });
      await relay.start();
      stoppables.push({ name: 'relay', stop: () => (relay as EventRelay).stop() });
      const selfUpdate = ytDlp?.selfUpdate;
      if (selfUpdate != null) {
        selfUpdate.start();
        stoppables.push({ name: 'yt-dlp self-update', stop: () => selfUpdate.stop() });
      }
      const running = container.resolve(RunningDownloads);
      const cancellations = listenForCancellations(nats, cancellationSubject(config), (jobId) => running.cancel(jobId));
      stoppables.push({ name: 'cancellations', stop: () => cancellations.stop() });
      for (const [subject, consumer] of workConsumers(container, config, jsm, nats, logger)) {
        await consumer.start();
        stoppables.push({ name: `consumer ${subject}`, stop: () => consumer.stop() });
      }
    }

    if (roles.has('sweeper') && config.fileRetentionSeconds > 0) {
      const sweeper = createFileSweeper(container, config, logger);
      sweeper.start();
      stoppables.push({ name: 'sweeper', stop: () => sweeper.stop() });
    }

    if (roles.has('api')) {
      const links = container.resolve<SignedDownloadLinks>(TOKENS.downloadLinks);
      const validation = new RequestValidation();
      const app = createHttpApp({
        logger,
        metrics: container.resolve<Registry>(TOKENS.metrics),
        legacyApiPrefixes: config.legacyApiPrefixes,
        bodyLimitBytes: config.bodyLimitBytes,
        authenticate: container.resolve(Authenticate),
        openApiDocument,
        afterAuthentication: requestRateLimit(new CheckRequestRate(await PostgresRateLimitStore.open(db), new PostgresAccountPlans(db), config.rateLimits)),
        apiRouters: [
          downloadRoutes({
            submitDownload: container.resolve(SubmitDownload),
            getDownloadJob: container.resolve(GetDownloadJob),
            cancelDownload: new CancelDownload(
              container.resolve(TOKENS.downloadJobCommands),
              new NatsJobCancellations(natsConnection, cancellationSubject(config), logger),
              clock,
            ),
            links,
            clock,
            validation,
            urls: new UrlPolicies(config),
          }),
          accountRoutes({ getAccount: container.resolve(GetAccount) }),
        ],
        publicRouters: [
          fileRoutes({ files: container.resolve<FileStore>(TOKENS.fileStore), links, clock }),
          operationsRoutes({
            metrics: container.resolve<Registry>(TOKENS.metrics),
            details: () => ({ ytDlp: ytDlp?.version() ?? null }),
            readinessChecks: {
              postgres: async () => (await db.raw('select 1')) !== undefined,
              eventStore: () => store.ping(),
              nats: async () => !natsConnection.isClosed() && (await natsConnection.rtt()) >= 0,
            },
          }),
        ],
      });
      const server = await listen(app.callback(), config.host, config.port);
      const address = server.address() as AddressInfo;
      url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address}:${address.port}`;
      // The HTTP server stops first, so no new work arrives while the rest winds down.
      stoppables.unshift({ name: 'http', stop: () => closeServer(server, config.shutdownTimeoutMs) });
      logger.info({ url }, 'API listening');
    }
  } catch (error) {
    await stopAll(stoppables, logger);
    await nats?.close();
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
        await nats?.drain().catch(() => nats?.close());
        await close();
      })();
      return stopping;
    },
  };
}

/** Subjects live under the stream's name, so several deployments (or test runs) share one NATS server without overlapping. */
function workSubject(config: Config, kind: WorkKind): string {
  return `${config.natsStreamName}.${kind}`;
}

/** Outside the work-queue stream's subjects: a plain NATS subject every worker hears. */
function cancellationSubject(config: Config): string {
  return `${config.natsStreamName}.cancellations`;
}

function workConsumers(container: DependencyContainer, config: Config, jsm: JetStreamManager, nats: NatsConnection, logger: Logger): Array<[string, WorkQueueConsumer]> {
  const js = nats.jetstream();
  const common = { js, jsm, stream: config.natsStreamName, logger, ackWaitMs: config.workAckWaitMs };
  const runDownload = container.resolve(RunDownload);
  const settle = container.resolve(SettleDownloadBilling);
  const releaseOrphan = container.resolve(ReleaseOrphanedReservation);
  return [
    [workSubject(config, 'download'), new WorkQueueConsumer({
      ...common,
      subject: workSubject(config, 'download'),
      concurrency: config.workerConcurrency,
      // One delivery beyond the attempts, so a job whose last attempt died with its worker is still failed.
      maxDeliver: config.downloadMaxAttempts + 1,
      handler: adapt((message, delivery) => runDownload.handle(message, delivery)),
    })],
    [workSubject(config, 'billing'), new WorkQueueConsumer({ ...common, subject: workSubject(config, 'billing'), concurrency: 4, maxDeliver: 1_000, handler: adapt((message) => settle.handle(message)) })],
    [workSubject(config, 'reservation'), new WorkQueueConsumer({ ...common, subject: workSubject(config, 'reservation'), concurrency: 2, maxDeliver: 1_000, handler: adapt((message) => releaseOrphan.handle(message)) })],
  ];
}

/** From the queue's terms to the application's: a message body becomes a JobMessage, an outcome an ack or a delayed retry. */
function adapt(handle: (message: JobMessage, delivery: Delivery) => Promise<WorkOutcome>) {
  return async (item: WorkItem): Promise<WorkResult> => {
    const outcome = await handle(item.data as JobMessage, { attempt: item.deliveryCount, heartbeat: () => item.heartbeat(), signal: item.signal });
    return outcome.kind === 'done' ? 'ack' : { retryAfterMs: outcome.afterMs };
  };
}

function listen(handler: RequestListener, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
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
