import { NotFoundError } from '../../domain/errors.js';
import type { MediaFormat } from '../../domain/media-format.js';
import type { SubscriptionCommand } from '../../domain/subscription/commands.js';
import type { LiveSubscriptionState } from '../../domain/subscription/state.js';
import type { Clock } from '../ports/clock.js';
import {
  type RosterCommandHandler,
  type SubscriptionCommandHandler,
  subscriptionCorrelation,
} from './subscription-commands.js';
import { type SubscriptionView, subscriptionView } from './subscription-view.js';

/** `PATCH /subscriptions/{id}`: the fields given, each applied as its own command. */
export interface SubscriptionChanges {
  paused?: boolean;
  checkEveryMinutes?: number;
  format?: MediaFormat;
  language?: string | null;
}

/**
 * An account's changes to its own subscriptions: pause, resume, interval,
 * format, a check now, and deletion. Another account's subscription, like
 * one deleted or never made, is not found.
 */
export class ChangeSubscription {
  constructor(
    private readonly subscriptions: SubscriptionCommandHandler,
    private readonly roster: RosterCommandHandler,
    private readonly clock: Clock,
  ) {}

  async change(accountId: string, subscriptionId: string, changes: SubscriptionChanges): Promise<SubscriptionView> {
    let state = await this.own(accountId, subscriptionId);
    const now = this.clock.now().toISOString();
    const commands: SubscriptionCommand[] = [];
    if (changes.checkEveryMinutes !== undefined)
      commands.push({
        type: 'ChangeInterval',
        data: { subscriptionId, checkEveryMinutes: changes.checkEveryMinutes, now },
      });
    if (changes.format !== undefined || changes.language !== undefined) {
      const format = changes.format ?? state.settings.format;
      const language = changes.language === undefined ? state.settings.language : changes.language;
      commands.push({ type: 'ChangeFormat', data: { subscriptionId, format, language, now } });
    }
    if (changes.paused === true) commands.push({ type: 'PauseSubscription', data: { subscriptionId, now } });
    if (changes.paused === false) commands.push({ type: 'ResumeSubscription', data: { subscriptionId, now } });
    for (const command of commands) state = await this.apply(subscriptionId, command);
    return this.viewOf(state, subscriptionId);
  }

  async checkNow(accountId: string, subscriptionId: string): Promise<SubscriptionView> {
    await this.own(accountId, subscriptionId);
    const now = this.clock.now().toISOString();
    const state = await this.apply(subscriptionId, { type: 'RequestCheck', data: { subscriptionId, now } });
    return this.viewOf(state, subscriptionId);
  }

  /** Deletes it and gives its plan slot back at once; the subscription process gives it back too, should this stop between. */
  async remove(accountId: string, subscriptionId: string): Promise<void> {
    await this.own(accountId, subscriptionId);
    const now = this.clock.now().toISOString();
    await this.apply(subscriptionId, { type: 'DeleteSubscription', data: { subscriptionId, now } });
    await this.roster.handle(
      accountId,
      { type: 'ReleaseSubscription', data: { accountId, subscriptionId, now } },
      subscriptionCorrelation(subscriptionId),
    );
  }

  private async own(accountId: string, subscriptionId: string): Promise<LiveSubscriptionState> {
    const { state } = await this.subscriptions.load(subscriptionId);
    if (state.status === 'none' || state.status === 'deleted' || state.created.accountId !== accountId)
      throw new NotFoundError('Subscription not found');
    return state;
  }

  private async apply(subscriptionId: string, command: SubscriptionCommand): Promise<LiveSubscriptionState> {
    const { state } = await this.subscriptions.handle(subscriptionId, command, subscriptionCorrelation(subscriptionId));
    if (state.status === 'none') throw new NotFoundError(`Subscription ${subscriptionId} not found`);
    return state;
  }

  private viewOf(state: LiveSubscriptionState, subscriptionId: string): SubscriptionView {
    const view = subscriptionView(state);
    if (view === null) throw new NotFoundError(`Subscription ${subscriptionId} not found`);
    return view;
  }
}
