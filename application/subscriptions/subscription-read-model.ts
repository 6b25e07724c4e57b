import type { SubscriptionView } from './subscription-view.js';

/** A check to run: one due, or one started so long ago that its worker is gone. */
export interface DueCheck {
  subscriptionId: string;
  dueAt: string;
}

/** A subscription's row: its view (null once deleted) as of `revision` of its stream. */
export interface SubscriptionRow {
  view: SubscriptionView | null;
  revision: number;
}

/** The subscriptions as the read model has folded them. */
export interface SubscriptionReadModel {
  get(subscriptionId: string): Promise<SubscriptionRow | null>;
  /** The account's live subscriptions, oldest first, from `offset`. */
  list(accountId: string, offset: number, limit: number): Promise<{ items: SubscriptionView[]; total: number }>;
  /** Active subscriptions whose check is due at `now`, or whose check started before `staleBefore`; soonest first. */
  due(now: Date, staleBefore: Date, limit: number): Promise<DueCheck[]>;
}
