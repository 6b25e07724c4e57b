import type Router from '@koa/router';
import type { Logger } from '../../application/ports/logger.js';
import type { JobMessage, WorkKind } from '../../application/processes/work-routing.js';
import type { Delivery, WorkOutcome } from '../../application/processes/work-outcome.js';
import type { Projection } from '../../projections/projection.js';
import type { Config } from '../config/config.js';
import type { ConfigSection } from '../config/section.js';
import type { AdminRoutes } from '../http/create-http-app.js';
import type { OpenApiPart } from '../http/openapi/openapi-part.js';
import type { RequestValidation } from '../http/request-validation.js';
import type { UrlPolicies } from '../http/url-policies.js';
import type { Container } from './container.js';
import type { Overrides } from './overrides.js';

export interface FeatureContext {
  container: Container;
  config: Config;
  logger: Logger;
  overrides: Overrides;
}

/** Something a role runs in the background until it stops. */
export interface Loop {
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

/** How the worker role consumes one kind of work. */
export interface WorkHandlerSpec {
  handle(message: JobMessage, delivery: Delivery): Promise<WorkOutcome>;
  concurrency: number;
  /** Deliveries before the queue gives a message up as a dead letter. */
  maxDeliver: number;
}

export type WorkHandlerFactory = (container: Container, config: Config) => WorkHandlerSpec;

export interface ApiContext extends FeatureContext {
  validation: RequestValidation;
  urls: UrlPolicies;
}

/** A feature's share of the api role. */
export interface ApiPart {
  /** Behind bearer authentication, under every API prefix. */
  apiRouters?: Router[];
  /** Outside the API prefixes. */
  publicRouters?: Router[];
  /** The admin API (one feature gives it): its routes, under /admin/v1, and how operators are authenticated there. */
  admin?: AdminRoutes;
  /** Before the server listens. */
  start?(): Promise<void>;
  /** Ends long-lived responses, which would otherwise hold the server's shutdown up. */
  closeStreams?(): void;
  /** After the server has closed. */
  stop?(): Promise<void>;
  /** More of what /readyz checks: each true while this part works. */
  readinessChecks?: Record<string, () => Promise<boolean>>;
}

/**
 * One feature's part in every role: what it registers, projects, stores, consumes and serves. The shared files collect
 * these declarations (features.ts), so a new feature is its own folders plus the few shared lines the README's "Adding
 * a feature" lists.
 */
export interface FeatureModule {
  readonly name: string;
  /** The features whose container registrations this one resolves: start-up refuses a set of features that lacks one. */
  readonly requires?: readonly string[];
  /** Its own configuration section, if only it reads one: in the README's table, read at start-up, and given to it by `config.features.of(section)`. */
  readonly config?: ConfigSection<unknown>;
  register?(context: FeatureContext): void;
  readonly projections?: readonly Projection[];
  /** The statements that create its projections' tables, idempotent (CREATE ... IF NOT EXISTS), in order. */
  readonly readModelSchema?: readonly string[];
  /**
   * What erasing an account does to its tables: statements that drop or blank the account's personal fields, each
   * `?` bound to the account's id, run in one transaction in the features' order.
   */
  readonly erasureStatements?: readonly string[];
  /** Its paths, schemas and tags in the OpenAPI document, which is assembled from the features' parts. */
  readonly openApi?: readonly OpenApiPart[];
  /** The work kinds this feature consumes: every WorkKind is consumed by exactly one feature, or FEATURES fails to compile. */
  readonly work?: Partial<Record<WorkKind, WorkHandlerFactory>>;
  api?(context: ApiContext): ApiPart;
  /** In every projector process. */
  projectorLoops?(context: FeatureContext): Loop[];
  /** In every worker process. */
  workerLoops?(context: FeatureContext): Loop[];
  /** In one worker process of the deployment at a time. */
  leaderLoops?(context: FeatureContext): Loop[];
  /** In the sweeper role. */
  sweeperLoops?(context: FeatureContext): Loop[];
}
