import type { WorkKind } from '../../application/processes/work-routing.js';
import type { Projection } from '../../projections/projection.js';
import type { FeatureModule, WorkHandlerFactory } from '../composition/feature-module.js';
import { CONFIG_SECTIONS, type Config } from '../config/config.js';
import type { ConfigSection } from '../config/section.js';
import { type OpenApiDocument, assembleOpenApiDocument } from '../http/openapi/document.js';
import { accountExportFeature } from './account-export/account-export-feature.js';
import { accountsFeature } from './accounts/accounts-feature.js';
import { adminApiFeature } from './admin-api/admin-api-feature.js';
import { batchesFeature } from './batches/batches-feature.js';
import { channelListingFeature } from './channel-listing/channel-listing-feature.js';
import { consoleFeature } from './console/console-feature.js';
import { downloadsFeature } from './downloads/downloads-feature.js';
import { jobWatchingFeature } from './job-watching/job-watching-feature.js';
import { lookupsFeature } from './lookups/lookups-feature.js';
import { retentionFeature } from './retention/retention-feature.js';
import { subscriptionsFeature } from './subscriptions/subscriptions-feature.js';
import { webhooksFeature } from './webhooks/webhooks-feature.js';

// As written, so that the compiler can read which feature consumes which kind of work. The OpenAPI document lists its
// tags in this order, as it did when it was written in one file.
const FEATURE_LIST = [
  downloadsFeature,
  lookupsFeature,
  channelListingFeature,
  batchesFeature,
  subscriptionsFeature,
  jobWatchingFeature,
  accountsFeature,
  accountExportFeature,
  adminApiFeature,
  webhooksFeature,
  retentionFeature,
  consoleFeature,
] as const satisfies readonly FeatureModule[];

/** Every feature of the service; the api role mounts their routes and the schema creates their tables in this order. */
export const FEATURES: readonly FeatureModule[] = FEATURE_LIST;

type WorkOf<Feature> = Feature extends { work: infer Work } ? keyof Work : never;
type ConsumersOf<Kind, Features extends readonly unknown[]> = Features extends readonly [infer First, ...infer Rest]
  ? Kind extends WorkOf<First>
    ? [First, ...ConsumersOf<Kind, Rest>]
    : ConsumersOf<Kind, Rest>
  : [];
/** The kinds of work that no feature, or more than one, consumes. */
type MisconsumedWork = {
  [Kind in WorkKind]: ConsumersOf<Kind, typeof FEATURE_LIST>['length'] extends 1 ? never : Kind;
}[WorkKind];
// A kind of work nobody takes would wait in the queue forever, one taken twice would run twice: either fails to compile
// here, and the error names the kind.
const everyKindConsumedOnce: [MisconsumedWork] extends [never]
  ? true
  : `not consumed by exactly one feature: ${MisconsumedWork}` = true;

/** Which feature handles each kind of work, gathered from the features' `work`. */
export const WORK_HANDLERS: Readonly<Record<WorkKind, WorkHandlerFactory>> = everyKindConsumedOnce
  ? Object.assign({}, ...FEATURES.map((feature) => feature.work ?? {}))
  : {};

export const PROJECTIONS: readonly Projection[] = FEATURES.flatMap((feature) => feature.projections ?? []);

/** The read models' tables, in the features' order. */
export const READ_MODEL_SCHEMA: readonly string[] = FEATURES.flatMap((feature) => feature.readModelSchema ?? []);

/** What erasing an account does to the read models, in the features' order. */
export const ERASURE_STATEMENTS: readonly string[] = FEATURES.flatMap((feature) => feature.erasureStatements ?? []);

/** The API's OpenAPI document, served at /openapi.json and the source of request validation: the features' parts. */
export const OPENAPI_DOCUMENT: OpenApiDocument = assembleOpenApiDocument(
  FEATURES.flatMap((feature) => feature.openApi ?? []),
);

const FEATURE_CONFIG_SECTIONS = FEATURES.flatMap((feature) => (feature.config === undefined ? [] : [feature.config]));

/** Every section of the configuration in the README's order: the shared ones, then those the features declare. */
export const ALL_CONFIG_SECTIONS: readonly ConfigSection<unknown>[] = [
  ...Object.values(CONFIG_SECTIONS),
  ...FEATURE_CONFIG_SECTIONS,
];

/** Reads every feature's own section now, so that a bad value stops the service before anything starts. */
export function readFeatureSettings(config: Config): void {
  for (const section of FEATURE_CONFIG_SECTIONS) config.features.of(section);
}
