import { accountBalances, type FeatureBalance } from '../../domain/account/balances.js';
import type { FeatureId, PlanId } from '../../domain/account/plan.js';
import { accountStateAt } from '../../domain/account/renewal.js';
import { streamName } from '../../domain/stream-name.js';
import { ROSTER_CATEGORY, SUBSCRIPTION_ALLOWANCE, rosterDecider } from '../../domain/subscription/roster.js';
import type { Clock } from '../ports/clock.js';
import type { EventStore } from '../ports/event-store.js';
import type { AccountState } from '../../domain/account/state.js';
import type { AccountReadModel } from '../ports/read-models.js';

export interface AccountSummary {
  name: string;
  email: string;
  plan: { id: PlanId; renewsAt: number | null; canceledAt: number | null };
  balances: Partial<Record<FeatureId, FeatureBalance>>;
  /** How many subscriptions the plan allows the account to hold at once, and how many it holds. */
  subscriptions: { allowance: number; held: number };
}

/** `GET /me`: from the read model, as of now (a period that ended reads as renewed). Never charged. */
export class GetAccount {
  constructor(
    private readonly readModel: AccountReadModel,
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute(accountId: string): Promise<AccountSummary | null> {
    const view = await this.readModel.get(accountId);
    return view === null ? null : this.ofState(accountId, view.state);
  }

  /** The summary of a state folded elsewhere (a command's result), as of now. */
  async ofState(accountId: string, folded: AccountState): Promise<AccountSummary | null> {
    if (folded.plan === null) return null;
    const held = await this.subscriptionsHeld(accountId);
    const now = this.clock.now().getTime();
    const state = accountStateAt(folded, now);
    const planId = (state.plan ?? folded.plan).id;
    return {
      name: state.name,
      email: state.email,
      plan: { id: planId, renewsAt: state.periodEnd, canceledAt: state.cancellation?.scheduledAt ?? null },
      balances: accountBalances(state, now),
      subscriptions: { allowance: SUBSCRIPTION_ALLOWANCE[planId], held },
    };
  }

  /** Counted from the account's roster stream, where creations hold their slot: exact, and short (one event per creation or deletion). */
  private async subscriptionsHeld(accountId: string): Promise<number> {
    const events = await this.store.readStream(streamName(ROSTER_CATEGORY, accountId));
    const roster = events.reduce(
      (state, { type, data }) =>
        rosterDecider.evolve(state, { type, data } as Parameters<typeof rosterDecider.evolve>[1]),
      rosterDecider.initialState(),
    );
    return Object.keys(roster.held).length;
  }
}
