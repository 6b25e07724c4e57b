import type { WorkKind } from '../../application/processes/work-routing.js';
import type { Projection } from '../../projections/projection.js';
import { accountsFeature } from '../features/accounts-feature.js';
import { channelListingFeature } from '../features/channel-listing-feature.js';
import { consoleFeature } from '../features/console-feature.js';
import { downloadsFeature } from '../features/downloads-feature.js';
import { jobWatchingFeature } from '../features/job-watching-feature.js';
import { lookupsFeature } from '../features/lookups-feature.js';
import { retentionFeature } from '../features/retention-feature.js';
import { webhooksFeature } from '../features/webhooks-feature.js';
import type { FeatureModule, WorkHandlerFactory } from './feature-module.js';

/** Every feature of the service; the api role mounts their routes in this order. */
export const FEATURES: readonly FeatureModule[] = [
  accountsFeature,
  downloadsFeature,
  lookupsFeature,
  channelListingFeature,
  jobWatchingFeature,
  webhooksFeature,
  retentionFeature,
  consoleFeature,
];

/** Spelled out so that a WorkKind no feature consumes fails to compile, rather than queueing work nobody takes. */
export const WORK_HANDLERS: Readonly<Record<WorkKind, WorkHandlerFactory>> = {
  ...downloadsFeature.work,
  ...lookupsFeature.work,
  ...webhooksFeature.work,
};

export const PROJECTIONS: readonly Projection[] = FEATURES.flatMap((feature) => feature.projections ?? []);
