import { Authenticate } from '../../../application/accounts/authenticate.js';
import { ChargeVisibility } from '../../../application/accounts/charge-visibility.js';
import { ReadWebhookDeliveryHistory } from '../../../application/audit/webhook-delivery-history.js';
import { ListDownloadJobs } from '../../../application/downloads/list-download-jobs.js';
import { ListWebhookAttempts } from '../../../application/downloads/list-webhook-attempts.js';
import type { DownloadProgress } from '../../../application/ports/download-progress.js';
import type { DownloadJobView } from '../../../application/ports/read-models.js';
import type { Container } from '../../composition/container.js';
import type { FeatureModule } from '../../composition/feature-module.js';
import { TOKENS } from '../../composition/tokens.js';
import { downloadEventsRoutes } from './download-events-routes.js';
import { downloadListRoutes } from './download-list-routes.js';
import { downloadStatusBody } from '../../http/routes/download-status-body.js';
import { webhookAttemptsRoutes } from './webhook-attempts-routes.js';
import { EventStreamConnections } from '../../http/sse/event-stream-connections.js';
import { RevokedStreamSweep } from '../../http/sse/revoked-stream-sweep.js';
import { JobStatusHub } from '../../live/job-status-hub.js';
import { KeyRevocationNotices } from '../../security/key-revocation-notices.js';
import { eventStreamsSection } from './event-streams-config.js';
import { jobWatchingOpenApi } from './job-watching-openapi.js';

/** An account watching its jobs: the list, live status (with the workers' progress) and webhook history. */
export const jobWatchingFeature = {
  name: 'job watching',
  requires: ['accounts', 'downloads'],
  openApi: [jobWatchingOpenApi],
  config: eventStreamsSection,
  register: ({ container: c, config, logger }) => {
    // One set of streams for every live status (batches' too): the limits per key and per process hold for all.
    c.singleton(EventStreamConnections, () => new EventStreamConnections(config.features.of(eventStreamsSection)));
    c.singleton(
      JobStatusHub,
      () =>
        new JobStatusHub({
          store: c.resolve(TOKENS.eventStore),
          jobs: c.resolve(TOKENS.downloadJobCommands),
          progressChannel: c.resolve(TOKENS.workQueue).broadcast('progress'),
          render: statusRenderer(c),
          logger,
          charges: c.resolve(ChargeVisibility),
        }),
    );
  },
  api: ({ container: c, validation, logger }) => {
    const hub = c.resolve(JobStatusHub);
    const render = statusRenderer(c);
    const connections = c.resolve(EventStreamConnections);
    const notices = c.resolve(KeyRevocationNotices);
    const authenticate = c.resolve(Authenticate);
    const sweep = new RevokedStreamSweep(connections, {
      isStillActive: (keyId) => authenticate.isStillActive(keyId),
      logger,
    });
    const stopClosingRevoked = notices.subscribe((keyId) => connections.closeKey(keyId));
    const stopSweeping = notices.onResumed(() => void sweep.run());
    return {
      apiRouters: [
        downloadListRoutes({
          listDownloadJobs: new ListDownloadJobs(c.resolve(TOKENS.downloadJobReadModel), c.resolve(ChargeVisibility)),
          statusBody: (view) => render(view, view.status === 'IN_PROGRESS' ? hub.progress.of(view.jobId) : undefined),
          validation,
        }),
        downloadEventsRoutes({ hub, connections, validation, authenticate }),
        webhookAttemptsRoutes({
          listWebhookAttempts: new ListWebhookAttempts(new ReadWebhookDeliveryHistory(c.resolve(TOKENS.eventStore))),
          validation,
        }),
      ],
      start: () => hub.start(),
      closeStreams: () => connections.closeAll(),
      stop: () => {
        stopClosingRevoked();
        stopSweeping();
        return hub.stop();
      },
      readinessChecks: { liveStatus: async () => hub.following },
    };
  },
} satisfies FeatureModule;

function statusRenderer(c: Container) {
  const links = c.resolve(TOKENS.downloadLinks);
  const clock = c.resolve(TOKENS.clock);
  return (view: DownloadJobView, progress?: DownloadProgress) => downloadStatusBody(view, links, clock.now(), progress);
}
