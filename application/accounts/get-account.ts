import { accountBalances, type FeatureBalance } from '../../domain/account/balances.js';
import type { FeatureId, PlanId } from '../../domain/account/plan.js';
import { accountStateAt } from '../../domain/account/renewal.js';
import type { Clock } from '../ports/clock.js';
import type { AccountReadModel } from '../ports/read-models.js';

export interface AccountSummary {
  name: string;
  email: string;
  plan: { id: PlanId; renewsAt: number | null; canceledAt: number | null };
  balances: Partial<Record<FeatureId, FeatureBalance>>;
}

/** `GET /me`: from the read model, as of now (a period that ended reads as renewed). Never charged. */
export class GetAccount {
  constructor(
    private readonly readModel: AccountReadModel,
    private readonly clock: Clock,
  ) {}

  async execute(accountId: string): Promise<AccountSummary | null> {
    const view = await this.readModel.get(accountId);
    if (view === null || view.state.plan === null) return null;
    const now = this.clock.now().getTime();
    const state = accountStateAt(view.state, now);
    return {
      name: state.name,
      email: state.email,
      plan: {
        id: (state.plan ?? view.state.plan).id,
        renewsAt: state.periodEnd,
        canceledAt: state.cancellation?.scheduledAt ?? null,
      },
      balances: accountBalances(state, now),
    };
  }
}
