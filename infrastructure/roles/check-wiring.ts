import { Authenticate } from '../../application/accounts/authenticate.js';
import { type JobMessage, WORK_KINDS } from '../../application/processes/work-routing.js';
import type { Delivery } from '../../application/processes/work-outcome.js';
import type { Key } from '../composition/container.js';
import type { FeatureModule } from '../composition/feature-module.js';
import { OPENAPI_DOCUMENT } from '../features/features.js';
import { resolutionStub } from '../composition/resolution-stub.js';
import { TOKENS } from '../composition/tokens.js';
import type { Role } from '../config/config.js';
import { RequestValidation } from '../http/request-validation.js';
import { UrlPolicies } from '../http/url-policies.js';
import type { RoleContext } from './role-context.js';

/** What the roles resolve themselves, besides their features' parts. */
const ROLE_KEYS: Record<Role, readonly Key<unknown>[]> = {
  api: [TOKENS.warmExtractor, TOKENS.ytDlp, TOKENS.metrics, Authenticate, TOKENS.rateLimitStore, TOKENS.storage],
  projector: [TOKENS.storage, TOKENS.database, TOKENS.eventStore],
  worker: [TOKENS.ytDlp, TOKENS.workDirs, TOKENS.database, TOKENS.anomalies, TOKENS.workQueue],
  sweeper: [],
};

/** Features that name a required feature absent from `features`. */
export class FeatureWiringError extends Error {
  constructor(problems: readonly string[]) {
    super(`the service's features do not fit together: ${problems.join('; ')}`);
    this.name = 'FeatureWiringError';
  }
}

/**
 * Before anything runs: every feature a feature requires is present, and every container key that these roles and
 * their features resolve (through the factories of what they resolve) is registered. Nothing is built or started.
 */
export function checkWiring(context: RoleContext, roles: ReadonlySet<Role>, features: readonly FeatureModule[]): void {
  const problems = absentRequirements(features);
  const missing = context.container.unregisteredKeysResolvedBy(() => {
    for (const role of roles) {
      for (const key of ROLE_KEYS[role]) context.container.resolve(key);
      for (const feature of features) runRoleParts(context, role, feature);
    }
  });
  if (missing.length > 0)
    problems.push(`${[...roles].join(', ')} resolve what nobody registered: ${missing.join(', ')}`);
  if (problems.length > 0) throw new FeatureWiringError(problems);
}

/** "<feature> requires <name>" for each required feature that is not among `features`. */
export function absentRequirements(features: readonly FeatureModule[]): string[] {
  const names = new Set(features.map((feature) => feature.name));
  return features.flatMap((feature) =>
    (feature.requires ?? []).filter((name) => !names.has(name)).map((name) => `${feature.name} requires ${name}`),
  );
}

/** What the role asks of the feature, made without starting it; work handlers are called once on a stand-in. */
function runRoleParts(context: RoleContext, role: Role, feature: FeatureModule): void {
  const { container, config } = context;
  if (role === 'api') {
    const urls = new UrlPolicies(config);
    feature.api?.({ ...context, validation: new RequestValidation(OPENAPI_DOCUMENT), urls });
  }
  if (role === 'projector') feature.projectorLoops?.(context);
  if (role === 'sweeper') feature.sweeperLoops?.(context);
  if (role !== 'worker') return;
  feature.workerLoops?.(context);
  feature.leaderLoops?.(context);
  for (const kind of WORK_KINDS) {
    const handler = feature.work?.[kind]?.(container, config);
    // Handlers resolve their use case when called; what they return is a stand-in, or a promise whose end is of no interest.
    Promise.resolve(handler?.handle(resolutionStub() as JobMessage, resolutionStub() as Delivery)).catch(
      () => undefined,
    );
  }
}
