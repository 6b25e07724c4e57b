import type { SubscriptionSource } from '../../domain/subscription/settings.js';
import type { LastCheck, LiveSubscriptionState } from '../../domain/subscription/state.js';
import type { MediaFormat } from '../../domain/media-format.js';

export interface SubscriptionJobView {
  jobId: string;
  videoUrl: string;
  title: string | null;
}

/** A subscription as its account sees it. */
export interface SubscriptionView {
  subscriptionId: string;
  accountId: string;
  status: 'active' | 'paused';
  source: SubscriptionSource;
  format: MediaFormat;
  language: string | null;
  webhookUrl: string | null;
  checkEveryMinutes: number;
  start: string;
  createdAt: string;
  pause: { pausedBy: 'user' | 'subscription'; reason: string | null; pausedAt: string } | null;
  nextCheckAt: string | null;
  checkStartedAt: string | null;
  lastCheck: LastCheck | null;
  /** Videos its listings showed, and of them the ones waiting for a pending slot or refused for good. */
  videosSeen: number;
  videosWaiting: number;
  videosRefused: number;
  /** The jobs it submitted, oldest first. */
  jobs: SubscriptionJobView[];
}

/** The view of a live subscription; null for a deleted one, which is gone for its account. */
export function subscriptionView(state: LiveSubscriptionState): SubscriptionView | null {
  if (state.status === 'deleted') return null;
  const { subscriptionId, accountId, source, webhookUrl, start, createdAt } = state.created;
  return {
    subscriptionId,
    accountId,
    status: state.status,
    source,
    ...state.settings,
    webhookUrl,
    start: start.kind === 'new' ? 'new' : `latest:${start.count}`,
    createdAt,
    pause: state.pause,
    nextCheckAt: state.nextCheckAt,
    checkStartedAt: state.checkInProgress?.startedAt ?? null,
    lastCheck: state.lastCheck,
    videosSeen: Object.keys(state.seen).length,
    videosWaiting: state.queue.length,
    videosRefused: Object.keys(state.refused).length,
    // By submission: a state read back from a snapshot (jsonb) does not keep its keys' order.
    jobs: Object.values(state.submitted)
      .sort((a, b) => a.order - b.order)
      .map(({ jobId, videoUrl, title }) => ({ jobId, videoUrl, title })),
  };
}
