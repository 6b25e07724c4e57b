import { ChargeVisibility } from '../application/accounts/charge-visibility.js';
import type Router from '@koa/router';
import type { DependencyContainer } from 'tsyringe';
import type { DownloadJobCommandHandler } from '../application/downloads/download-job-commands.js';
import { ReadWebhookDeliveryHistory } from '../application/audit/webhook-delivery-history.js';
import { ListDownloadJobs } from '../application/downloads/list-download-jobs.js';
import { ListWebhookAttempts } from '../application/downloads/list-webhook-attempts.js';
import type { Clock } from '../application/ports/clock.js';
import type { DownloadLinks } from '../application/ports/download-links.js';
import type { DownloadProgress } from '../application/ports/download-progress.js';
import type { EventStore } from '../application/ports/event-store.js';
import type { Logger } from '../application/ports/logger.js';
import type { DownloadJobReadModel, DownloadJobView } from '../application/ports/read-models.js';
import type { Broadcast } from '../application/ports/work-queue.js';
import type { Config } from './config/config.js';
import { TOKENS } from './container.js';
import type { RequestValidation } from './http/request-validation.js';
import { downloadEventsRoutes } from './http/routes/download-events-routes.js';
import { downloadListRoutes } from './http/routes/download-list-routes.js';
import { downloadStatusBody } from './http/routes/download-status-body.js';
import { webhookAttemptsRoutes } from './http/routes/webhook-attempts-routes.js';
import { EventStreamConnections } from './http/sse/event-stream-connections.js';
import { JobStatusHub } from './live/job-status-hub.js';

export interface JobWatching {
  /** The routes that let an account watch its jobs: the list, live status and webhook history. */
  routers: Router[];
  progressOf(jobId: string): DownloadProgress | undefined;
  start(): Promise<void>;
  /** Ends every open event stream, which would otherwise hold the HTTP server's shutdown up. */
  closeStreams(): void;
  stop(): Promise<void>;
}

/** The API side of watching jobs; `progressChannel` carries the workers' progress reports. */
export function createJobWatching(container: DependencyContainer, config: Config, validation: RequestValidation, progressChannel: Broadcast): JobWatching {
  const links = container.resolve<DownloadLinks>(TOKENS.downloadLinks);
  const clock = container.resolve<Clock>(TOKENS.clock);
  const render = (view: DownloadJobView, progress?: DownloadProgress) => downloadStatusBody(view, links, clock.now(), progress);
  const store = container.resolve<EventStore>(TOKENS.eventStore);
  const hub = new JobStatusHub({
    store,
    jobs: container.resolve<DownloadJobCommandHandler>(TOKENS.downloadJobCommands),
    progressChannel,
    render,
    logger: container.resolve<Logger>(TOKENS.logger),
    charges: container.resolve(ChargeVisibility),
  });
  const connections = new EventStreamConnections({ perKey: config.eventStreams.perKey, max: config.eventStreams.max, heartbeatMs: config.eventStreams.heartbeatMs });
  const progressOf = (jobId: string) => hub.progress.of(jobId);
  return {
    routers: [
      downloadListRoutes({
        listDownloadJobs: new ListDownloadJobs(container.resolve<DownloadJobReadModel>(TOKENS.downloadJobReadModel), container.resolve(ChargeVisibility)),
        statusBody: (view) => render(view, view.status === 'IN_PROGRESS' ? progressOf(view.jobId) : undefined),
        validation,
      }),
      downloadEventsRoutes({ hub, connections, validation }),
      webhookAttemptsRoutes({ listWebhookAttempts: new ListWebhookAttempts(new ReadWebhookDeliveryHistory(store)), validation }),
    ],
    progressOf,
    start: () => hub.start(),
    closeStreams: () => connections.closeAll(),
    stop: () => hub.stop(),
  };
}
