import { decideAccount } from '../../domain/account/decide.js';
import { channelListUnits } from '../../domain/account/lookups.js';
import { NotFoundError } from '../../domain/errors.js';
import type { CreateSubscription } from '../../domain/subscription/commands.js';
import { SUBSCRIPTION_ALLOWANCE } from '../../domain/subscription/roster.js';
import { checkInterval, checkStart } from '../../domain/subscription/settings.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';
import { CHECK_LISTING_SIZE } from './run-subscription-check.js';
import {
  type RosterCommandHandler,
  type SubscriptionCommandHandler,
  subscriptionCorrelation,
} from './subscription-commands.js';
import { type SubscriptionView, subscriptionView } from './subscription-view.js';

export type AddSubscriptionInput = Omit<CreateSubscription['data'], 'subscriptionId' | 'now'>;

export interface AddSubscriptionDependencies {
  readonly accounts: AccountCommandHandler;
  readonly roster: RosterCommandHandler;
  readonly subscriptions: SubscriptionCommandHandler;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

/**
 * `POST /subscriptions`. Each check is a listing, so the account needs what
 * one needs (the `channel_list` add-on and the units of a check's listing:
 * a dry run of its reservation); the plan's allowance is held in the
 * account's roster stream before the subscription is written, so concurrent
 * creations cannot pass it.
 */
export class AddSubscription {
  constructor(private readonly deps: AddSubscriptionDependencies) {}

  async execute(input: AddSubscriptionInput): Promise<SubscriptionView> {
    const subscriptionId = this.deps.ids.next();
    const now = this.deps.clock.now().toISOString();
    if (input.checkEveryMinutes !== undefined) checkInterval(input.checkEveryMinutes);
    if (input.start !== undefined) checkStart(input.start);
    const limit = await this.checkAccount(input, subscriptionId, now);
    const { accountId } = input;
    await this.deps.roster.handle(
      accountId,
      { type: 'HoldSubscription', data: { accountId, subscriptionId, limit, now } },
      subscriptionCorrelation(subscriptionId),
    );
    const { state } = await this.deps.subscriptions.handle(
      subscriptionId,
      { type: 'CreateSubscription', data: { ...input, subscriptionId, now } },
      subscriptionCorrelation(subscriptionId),
    );
    const view = state.status === 'none' ? null : subscriptionView(state);
    if (view === null) throw new NotFoundError(`Subscription ${subscriptionId} not found`);
    return view;
  }

  /** Throws what a check's listing would meet (the add-on missing, no credit for it); the plan's allowance. */
  private async checkAccount(input: AddSubscriptionInput, subscriptionId: string, now: string): Promise<number> {
    const { state } = await this.deps.accounts.load(input.accountId);
    const units = channelListUnits(CHECK_LISTING_SIZE);
    decideAccount(
      {
        type: 'ReserveLookup',
        data: { lookupId: subscriptionId, feature: 'channel_list', units, subject: input.source.url, now },
      },
      state,
    );
    return SUBSCRIPTION_ALLOWANCE[state.plan?.id ?? 'free'];
  }
}
