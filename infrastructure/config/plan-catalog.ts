import { readFileSync } from 'node:fs';
import { ADD_ON_IDS, FEATURE_IDS, PLAN_IDS, type PlanId, type PlanTerms } from '../../domain/account/plan.js';

/**
 * The plans on offer. The spec leaves the numbers to the operator; these are
 * the defaults, and PLAN_CATALOG_FILE may point at a JSON file of the same
 * shape to replace them. A megabyte is 10^6 bytes.
 */
export const DEFAULT_PLAN_CATALOG: Record<PlanId, PlanTerms> = {
  free: {
    id: 'free',
    allowances: { download_count: 10, bandwidth_mb: 1_000, info: 50, client_download: 0, channel_list: 0 },
    bandwidthOverageMb: 0,
    maxFileSizeMb: 500,
    addOnsAvailable: [],
    renewsMonthly: false,
  },
  starter: {
    id: 'starter',
    allowances: { download_count: 500, bandwidth_mb: 50_000, info: 2_000, client_download: 1_000, channel_list: 500 },
    bandwidthOverageMb: 5_000,
    maxFileSizeMb: 2_000,
    addOnsAvailable: ['client_download', 'channel_list'],
    renewsMonthly: true,
  },
  growth: {
    id: 'growth',
    allowances: {
      download_count: 5_000,
      bandwidth_mb: 500_000,
      info: 20_000,
      client_download: 10_000,
      channel_list: 5_000,
    },
    bandwidthOverageMb: 50_000,
    maxFileSizeMb: 4_000,
    addOnsAvailable: ['client_download', 'channel_list'],
    renewsMonthly: true,
  },
  scale: {
    id: 'scale',
    allowances: {
      download_count: 50_000,
      bandwidth_mb: 5_000_000,
      info: 200_000,
      client_download: 100_000,
      channel_list: 50_000,
    },
    bandwidthOverageMb: 500_000,
    maxFileSizeMb: 8_000,
    addOnsAvailable: ['client_download', 'channel_list'],
    renewsMonthly: true,
  },
  custom: {
    id: 'custom',
    allowances: {
      download_count: 'unlimited',
      bandwidth_mb: 'unlimited',
      info: 'unlimited',
      client_download: 'unlimited',
      channel_list: 'unlimited',
    },
    bandwidthOverageMb: 0,
    maxFileSizeMb: 16_000,
    addOnsAvailable: ['client_download', 'channel_list'],
    renewsMonthly: true,
  },
};

export function loadPlanCatalog(file: string | undefined): Record<PlanId, PlanTerms> {
  if (file === undefined || file === '') return DEFAULT_PLAN_CATALOG;
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  return validatePlanCatalog(parsed, file);
}

function validatePlanCatalog(value: unknown, source: string): Record<PlanId, PlanTerms> {
  const fail = (problem: string): never => {
    throw new Error(`PLAN_CATALOG_FILE ${source}: ${problem}`);
  };
  if (typeof value !== 'object' || value === null) return fail('must be a JSON object keyed by plan id');
  const catalog = value as Record<string, Partial<PlanTerms>>;
  for (const planId of PLAN_IDS) {
    const plan = catalog[planId] ?? fail(`plan ${planId} is missing`);
    if (plan.id !== planId) fail(`${planId}.id must be "${planId}"`);
    for (const feature of FEATURE_IDS) {
      const allowance = plan.allowances?.[feature];
      if (
        allowance !== 'unlimited' &&
        !(typeof allowance === 'number' && Number.isInteger(allowance) && allowance >= 0)
      ) {
        fail(`${planId}.allowances.${feature} must be a non-negative integer or "unlimited"`);
      }
    }
    if (!(typeof plan.bandwidthOverageMb === 'number' && plan.bandwidthOverageMb >= 0))
      fail(`${planId}.bandwidthOverageMb must be >= 0`);
    if (!(typeof plan.maxFileSizeMb === 'number' && plan.maxFileSizeMb > 0))
      fail(`${planId}.maxFileSizeMb must be > 0`);
    if (
      !Array.isArray(plan.addOnsAvailable) ||
      plan.addOnsAvailable.some((a) => !(ADD_ON_IDS as readonly string[]).includes(a))
    ) {
      fail(`${planId}.addOnsAvailable must list add-ons from: ${ADD_ON_IDS.join(', ')}`);
    }
    if (typeof plan.renewsMonthly !== 'boolean') fail(`${planId}.renewsMonthly must be true or false`);
  }
  return catalog as Record<PlanId, PlanTerms>;
}
