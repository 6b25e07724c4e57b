import { AdmitBatchVideos } from '../../../application/batches/admit-batch-videos.js';
import { BATCH_PROCESS_FILTER, BatchProcess } from '../../../application/batches/batch-process.js';
import { ChangeBatch } from '../../../application/batches/cancel-and-retry-batch.js';
import { GetBatch } from '../../../application/batches/get-batch.js';
import { ListBatchSource } from '../../../application/batches/list-batch-source.js';
import { SubmitBatch } from '../../../application/batches/submit-batch.js';
import { type BatchCommandHandler, batchCorrelation } from '../../../application/batches/batch-commands.js';
import { batchFinishedBody } from '../../../application/batches/batch-finished-body.js';
import { createStreamWebhookDeliveries } from '../../composition/create-stream-webhook-deliveries.js';
import type { DueWebhookDeliveries } from '../../webhooks/due-webhook-deliveries.js';
import { PostgresWebhookSchedule } from '../../webhooks/postgres-webhook-schedule.js';
import { CommandHandler } from '../../../application/command-handler.js';
import { SubmitDownload } from '../../../application/downloads/submit-download.js';
import { VideoLookup } from '../../../application/downloads/video-lookup.js';
import { ListChannel } from '../../../application/lookups/list-channel.js';
import { BATCH_CATEGORY, batchDecider } from '../../../domain/batch/decider.js';
import { parseVideoUrl } from '../../../domain/video-url.js';
import { batchesProjection } from '../../../projections/batches-projection.js';
import type { FeatureContext, FeatureModule } from '../../composition/feature-module.js';
import { processorOptions } from '../../composition/processor-options.js';
import { token } from '../../composition/token.js';
import { TOKENS } from '../../composition/tokens.js';
import { CheckpointedProcessor } from '../../processing/checkpointed-processor.js';
import { batchEventsRoutes } from './batch-events-routes.js';
import { BatchStatusHub } from './batch-status-hub.js';
import { EventStreamConnections } from '../../http/sse/event-stream-connections.js';
import { Authenticate } from '../../../application/accounts/authenticate.js';
import { LiveBatchView } from '../../../application/batches/live-batch-view.js';
import { batchesOpenApi } from './batch-openapi.js';
import { batchRoutes } from './batch-routes.js';
import { BATCH_ERASURE, BATCH_TABLES } from './batch-tables.js';
import { PeriodicTask } from '../../system/periodic-task.js';
import { batchWebhookDecider } from '../../../domain/batch/finished-webhook.js';
import { PostgresBatchJobIndex } from './postgres-batch-job-index.js';
import { PostgresBatchReadModel } from './postgres-batch-read-model.js';

const batchCommands = token<BatchCommandHandler>('BatchCommandHandler');
const batchWebhooks = token<DueWebhookDeliveries>('BatchWebhooks');
const BATCH_WEBHOOK_SCHEDULE = { table: 'batch_process_webhooks', idColumn: 'batch_id' };

/**
 * Batches: a playlist, a channel or a list of URLs in one request, each video
 * an ordinary download job. Uses the downloads' submission and the channel
 * listing's use case, both registered by their features.
 */
export const batchesFeature = {
  name: 'batches',
  register: (context) => {
    registerUseCases(context);
    registerProcess(context);
    registerWebhooks(context);
  },
  requires: ['accounts', 'downloads', 'channel listing', 'job watching'],
  projections: [batchesProjection],
  readModelSchema: BATCH_TABLES,
  erasureStatements: BATCH_ERASURE,
  openApi: [batchesOpenApi],
  api: ({ container: c, validation, urls, logger }) => {
    const { eventStore, database } = c.resolve(TOKENS.storage);
    const live = new LiveBatchView(c.resolve(batchCommands), new PostgresBatchReadModel(database), eventStore);
    const hub = new BatchStatusHub({ store: eventStore, load: (batchId) => live.load(batchId), logger });
    const connections = c.resolve(EventStreamConnections);
    return {
      apiRouters: [
        batchRoutes({
          submitBatch: c.resolve(SubmitBatch),
          getBatch: c.resolve(GetBatch),
          changeBatch: c.resolve(ChangeBatch),
          validation,
          urls,
        }),
        batchEventsRoutes({ hub, connections, validation, authenticate: c.resolve(Authenticate) }),
      ],
      start: () => hub.start(),
      // Its follower reads the same store as the job status hub's, whose readiness check answers for both.
      stop: () => hub.stop(),
    };
  },
  // Every worker runs the process; its lock keeps one instance active, and another takes over when it stops.
  workerLoops: ({ container: c, config, logger }) => {
    const process = c.resolve(BatchProcess);
    const processor = new CheckpointedProcessor(
      {
        name: 'batches:process',
        filter: BATCH_PROCESS_FILTER,
        async deliver(events) {
          for (const event of events) await process.react(event);
        },
      },
      processorOptions(config, c.resolve(TOKENS.storage), logger),
    );
    return [{ start: () => processor.start(), stop: () => processor.stop() }];
  },
  // One worker of the deployment sends the due `batch.finished` attempts; each is claimed in the batch's stream all the same.
  leaderLoops: ({ container: c, logger }) => [
    new PeriodicTask('batch webhooks', 500, () => c.resolve(batchWebhooks).runDue(), logger),
  ],
} satisfies FeatureModule;

function registerUseCases({ container: c }: FeatureContext): void {
  const { eventStore, database } = c.resolve(TOKENS.storage);
  c.singleton(batchCommands, () => new CommandHandler(eventStore, batchDecider, BATCH_CATEGORY, c.resolve(TOKENS.ids)));
  c.singleton(
    SubmitBatch,
    () =>
      new SubmitBatch(
        c.resolve(TOKENS.accountCommands),
        c.resolve(batchCommands),
        c.resolve(TOKENS.ids),
        c.resolve(TOKENS.clock),
      ),
  );
  c.singleton(GetBatch, () => new GetBatch(new PostgresBatchReadModel(database), c.resolve(batchCommands)));
  c.singleton(ChangeBatch, () => new ChangeBatch(c.resolve(batchCommands), c.resolve(TOKENS.clock)));
}

function registerWebhooks(context: FeatureContext): void {
  const { container: c } = context;
  c.singleton(batchWebhooks, () =>
    createStreamWebhookDeliveries(context, {
      decider: batchWebhookDecider,
      category: BATCH_CATEGORY,
      body: batchFinishedBody(c.resolve(batchCommands)),
      correlation: batchCorrelation,
      schedule: BATCH_WEBHOOK_SCHEDULE,
    }),
  );
}

function registerProcess({ container: c, config }: FeatureContext): void {
  const { database } = c.resolve(TOKENS.storage);
  const rules = {
    videoHosts: config.platforms.videoHosts,
    shortHosts: config.platforms.shortHosts,
    schemes: config.platforms.videoUrlSchemes,
  };
  c.singleton(BatchProcess, () => {
    const batches = c.resolve(batchCommands);
    const accounts = c.resolve(TOKENS.accountCommands);
    const jobs = c.resolve(TOKENS.downloadJobCommands);
    const clock = c.resolve(TOKENS.clock);
    const ids = c.resolve(TOKENS.ids);
    const index = new PostgresBatchJobIndex(database);
    const lookup = c.resolve(VideoLookup);
    const canonicalVideoUrl = (url: string) => {
      const result = parseVideoUrl(url, rules);
      return result.ok ? result.canonicalUrl : null;
    };
    return new BatchProcess({
      batches,
      jobs,
      index,
      clock,
      listing: new ListBatchSource({ batches, listChannel: c.resolve(ListChannel), canonicalVideoUrl, clock }),
      admission: new AdmitBatchVideos({
        batches,
        accounts,
        jobs,
        index,
        ids,
        clock,
        // The batch chose the job's id when it admitted the video; the submission is otherwise the ordinary one.
        submitDownload: (jobId) => new SubmitDownload(accounts, jobs, lookup, { next: () => jobId }, clock),
      }),
      webhooks: new PostgresWebhookSchedule(database, BATCH_WEBHOOK_SCHEDULE.table, BATCH_WEBHOOK_SCHEDULE.idColumn),
      announceCancel: (jobId) => c.resolve(TOKENS.jobCancellations).announce(jobId),
    });
  });
}
