import { CommandHandler, type CommandHandlerOptions } from '../../../application/command-handler.js';
import { SubmitDownload } from '../../../application/downloads/submit-download.js';
import { VideoLookup } from '../../../application/downloads/video-lookup.js';
import { ListChannel } from '../../../application/lookups/list-channel.js';
import { AddSubscription } from '../../../application/subscriptions/add-subscription.js';
import { ChangeSubscription } from '../../../application/subscriptions/change-subscription.js';
import { ReadSubscriptions } from '../../../application/subscriptions/read-subscriptions.js';
import { RunDueChecks } from '../../../application/subscriptions/run-due-checks.js';
import { RunSubscriptionCheck } from '../../../application/subscriptions/run-subscription-check.js';
import { SubmitSubscriptionVideos } from '../../../application/subscriptions/submit-subscription-videos.js';
import {
  type RosterCommandHandler,
  type SubscriptionCommandHandler,
  subscriptionCorrelation,
} from '../../../application/subscriptions/subscription-commands.js';
import { subscriptionPausedBody } from '../../../application/subscriptions/subscription-paused-body.js';
import { subscriptionWebhookDecider } from '../../../domain/subscription/paused-webhook.js';
import { createStreamWebhookDeliveries } from '../../composition/create-stream-webhook-deliveries.js';
import type { DueWebhookDeliveries } from '../../webhooks/due-webhook-deliveries.js';
import { PostgresWebhookSchedule } from '../../webhooks/postgres-webhook-schedule.js';
import {
  SUBSCRIPTION_PROCESS_FILTER,
  SubscriptionProcess,
} from '../../../application/subscriptions/subscription-process.js';
import { SUBSCRIPTION_CATEGORY, subscriptionDecider } from '../../../domain/subscription/decider.js';
import { ROSTER_CATEGORY, rosterDecider } from '../../../domain/subscription/roster.js';
import { ROSTER_STATE_VERSION, SUBSCRIPTION_STATE_VERSION } from '../../../domain/subscription/state-version.js';
import { PostgresSnapshotStore } from '../../snapshots/postgres-snapshot-store.js';
import { parseVideoUrl } from '../../../domain/video-url.js';
import { subscriptionsProjection } from '../../../projections/subscriptions-projection.js';
import type { FeatureContext, FeatureModule } from '../../composition/feature-module.js';
import { processorOptions } from '../../composition/processor-options.js';
import { token } from '../../composition/token.js';
import { TOKENS } from '../../composition/tokens.js';
import { CheckpointedProcessor } from '../../processing/checkpointed-processor.js';
import { PeriodicTask } from '../../system/periodic-task.js';
import { PostgresSubscriptionReadModel } from './postgres-subscription-read-model.js';
import { subscriptionsOpenApi } from './subscription-openapi.js';
import { subscriptionRoutes } from './subscription-routes.js';
import { SUBSCRIPTION_ERASURE, SUBSCRIPTION_TABLES } from './subscription-tables.js';

const subscriptionCommands = token<SubscriptionCommandHandler>('SubscriptionCommandHandler');
const rosterCommands = token<RosterCommandHandler>('SubscriptionRosterCommandHandler');
const subscriptionWebhooks = token<DueWebhookDeliveries>('SubscriptionWebhooks');
const WEBHOOK_SCHEDULE = { table: 'subscription_webhooks', idColumn: 'subscription_id' };

/** How often the scheduler looks for due checks, and how many it takes per look. */
const SCHEDULER_PERIOD_MS = 1_000;
const CHECKS_PER_ROUND = 20;
/** Beyond the listing's own bound, before a check left without an end is run again. */
const TAKE_OVER_MARGIN_MS = 60_000;
/** A command that folds this many events of a subscription's or roster's stream stores the state it reached. */
const SNAPSHOT_AFTER_EVENTS = 100;

/**
 * Subscriptions: a channel or playlist checked on a schedule, each new video
 * an ordinary download job. Uses the downloads' submission and the channel
 * listing's use case, both registered by their features.
 */
export const subscriptionsFeature = {
  name: 'subscriptions',
  requires: ['accounts', 'downloads', 'channel listing'],
  register: (context) => registerUseCases(context),
  projections: [subscriptionsProjection],
  readModelSchema: SUBSCRIPTION_TABLES,
  erasureStatements: SUBSCRIPTION_ERASURE,
  openApi: [subscriptionsOpenApi],
  api: ({ container: c, validation, urls }) => ({
    apiRouters: [
      subscriptionRoutes({
        add: c.resolve(AddSubscription),
        read: c.resolve(ReadSubscriptions),
        change: c.resolve(ChangeSubscription),
        validation,
        urls,
      }),
    ],
  }),
  // Every worker runs the process; its lock keeps one instance active, and another takes over when it stops.
  workerLoops: ({ container: c, config, logger }) => {
    const process = c.resolve(SubscriptionProcess);
    const processor = new CheckpointedProcessor(
      {
        name: 'subscriptions:process',
        filter: SUBSCRIPTION_PROCESS_FILTER,
        async deliver(events) {
          for (const event of events) await process.react(event);
        },
      },
      processorOptions(config, c.resolve(TOKENS.storage), logger),
    );
    return [{ start: () => processor.start(), stop: () => processor.stop() }];
  },
  // One worker of the deployment runs the due checks and sends the due `subscription.paused`; each is claimed in the
  // subscription's stream all the same.
  leaderLoops: ({ container: c, logger }) => [
    new PeriodicTask('subscription checks', SCHEDULER_PERIOD_MS, () => c.resolve(RunDueChecks).runDue(), logger),
    new PeriodicTask('subscription webhooks', 500, () => c.resolve(subscriptionWebhooks).runDue(), logger),
  ],
} satisfies FeatureModule;

/** Both kinds of stream never end (a check adds four or five events): their commands fold from a snapshot. */
function registerCommandHandlers({ container: c, logger }: FeatureContext): void {
  const { eventStore, database } = c.resolve(TOKENS.storage);
  const ids = c.resolve(TOKENS.ids);
  const snapshots = (version: number): CommandHandlerOptions => ({
    snapshots: {
      store: new PostgresSnapshotStore(database),
      version,
      afterEvents: SNAPSHOT_AFTER_EVENTS,
      onError: (error, stream) =>
        logger.warn({ err: error, stream }, 'Snapshot could not be read or stored; folding from the first event'),
    },
  });
  c.singleton(
    subscriptionCommands,
    () =>
      new CommandHandler(
        eventStore,
        subscriptionDecider,
        SUBSCRIPTION_CATEGORY,
        ids,
        snapshots(SUBSCRIPTION_STATE_VERSION),
      ),
  );
  c.singleton(
    rosterCommands,
    () => new CommandHandler(eventStore, rosterDecider, ROSTER_CATEGORY, ids, snapshots(ROSTER_STATE_VERSION)),
  );
}

function registerUseCases(context: FeatureContext): void {
  const { container: c, config } = context;
  const { database } = c.resolve(TOKENS.storage);
  const ids = () => c.resolve(TOKENS.ids);
  const clock = () => c.resolve(TOKENS.clock);
  registerCommandHandlers(context);
  const readModel = new PostgresSubscriptionReadModel(database);
  const takeOverAfterMs = config.lookups.channelListingTimeoutSeconds * 1000 + TAKE_OVER_MARGIN_MS;
  c.singleton(
    AddSubscription,
    () =>
      new AddSubscription({
        accounts: c.resolve(TOKENS.accountCommands),
        roster: c.resolve(rosterCommands),
        subscriptions: c.resolve(subscriptionCommands),
        ids: ids(),
        clock: clock(),
      }),
  );
  c.singleton(
    ReadSubscriptions,
    () => new ReadSubscriptions(readModel, c.resolve(subscriptionCommands), c.resolve(TOKENS.storage).eventStore),
  );
  c.singleton(
    ChangeSubscription,
    () => new ChangeSubscription(c.resolve(subscriptionCommands), c.resolve(rosterCommands), clock()),
  );
  c.singleton(SubscriptionProcess, () => {
    const accounts = c.resolve(TOKENS.accountCommands);
    const jobs = c.resolve(TOKENS.downloadJobCommands);
    const lookup = c.resolve(VideoLookup);
    return new SubscriptionProcess({
      subscriptions: c.resolve(subscriptionCommands),
      roster: c.resolve(rosterCommands),
      clock: clock(),
      submission: new SubmitSubscriptionVideos({
        subscriptions: c.resolve(subscriptionCommands),
        accounts,
        jobs,
        // The subscription chose the job's id when it took the video; the submission is otherwise the ordinary one.
        submitDownload: (jobId) => new SubmitDownload(accounts, jobs, lookup, { next: () => jobId }, clock()),
        ids: ids(),
        clock: clock(),
      }),
      webhooks: new PostgresWebhookSchedule(database, WEBHOOK_SCHEDULE.table, WEBHOOK_SCHEDULE.idColumn),
    });
  });
  c.singleton(subscriptionWebhooks, () =>
    createStreamWebhookDeliveries(context, {
      decider: subscriptionWebhookDecider,
      category: SUBSCRIPTION_CATEGORY,
      body: subscriptionPausedBody(c.resolve(subscriptionCommands)),
      correlation: subscriptionCorrelation,
      schedule: WEBHOOK_SCHEDULE,
    }),
  );
  registerChecks(context, readModel, takeOverAfterMs);
}

/** The scheduler and its checks, which list the source with the channel listing's use case. */
function registerChecks(
  { container: c, config }: FeatureContext,
  readModel: PostgresSubscriptionReadModel,
  takeOverAfterMs: number,
): void {
  const ids = () => c.resolve(TOKENS.ids);
  const clock = () => c.resolve(TOKENS.clock);
  const rules = {
    videoHosts: config.platforms.videoHosts,
    shortHosts: config.platforms.shortHosts,
    schemes: config.platforms.videoUrlSchemes,
  };
  c.singleton(RunDueChecks, () => {
    const check = new RunSubscriptionCheck({
      subscriptions: c.resolve(subscriptionCommands),
      listChannel: c.resolve(ListChannel),
      identify: (url) => {
        const result = parseVideoUrl(url, rules);
        return result.ok ? { videoId: result.videoId, videoUrl: result.canonicalUrl } : null;
      },
      ids: ids(),
      clock: clock(),
      takeOverAfterMs,
    });
    return new RunDueChecks(readModel, check, clock(), { takeOverAfterMs, perRound: CHECKS_PER_ROUND });
  });
}
