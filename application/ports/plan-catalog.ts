import type { PlanId, PlanTerms } from '../../domain/account/plan.js';

export type PlanCatalog = Record<PlanId, PlanTerms>;
