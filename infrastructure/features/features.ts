import type { WorkKind } from '../../application/processes/work-routing.js';
import type { Projection } from '../../projections/projection.js';
import { accountsFeature } from './accounts/accounts-feature.js';
import { batchesFeature } from './batches/batches-feature.js';
import { channelListingFeature } from './channel-listing/channel-listing-feature.js';
import { consoleFeature } from './console/console-feature.js';
import { downloadsFeature } from './downloads/downloads-feature.js';
import { jobWatchingFeature } from './job-watching/job-watching-feature.js';
import { lookupsFeature } from './lookups/lookups-feature.js';
import { retentionFeature } from './retention/retention-feature.js';
import { webhooksFeature } from './webhooks/webhooks-feature.js';
import type { FeatureModule, WorkHandlerFactory } from '../composition/feature-module.js';

/** Every feature of the service; the api role mounts their routes in this order. */
export const FEATURES: readonly FeatureModule[] = [
  accountsFeature,
  downloadsFeature,
  lookupsFeature,
  channelListingFeature,
  batchesFeature,
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
