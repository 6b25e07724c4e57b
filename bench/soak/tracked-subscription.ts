/** A subscription the soak's clients created, and what they did to it since. */
export interface TrackedSubscription {
  subscriptionId: string;
  accountId: string;
  key: string;
  createdAt: number;
  /** As the clients last set it: a change the service did not answer may or may not have happened. */
  paused: boolean;
  deleted: boolean;
  /** From its stream once the load is over: the checks that listed, and the jobs it submitted. */
  checks: number;
  jobs: number;
}

/** A subscription's stream as the event store holds it after the quiet period. */
export interface SubscriptionHistory {
  subscriptionId: string;
  accountId: string;
  events: ReadonlyArray<{ type: string; data: Record<string, unknown>; recordedAt: string }>;
}
