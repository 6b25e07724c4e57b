import { channelListUnits } from '../../domain/account/lookups.js';
import { AccountRefusedError, AddOnNotEnabledError, CreditLimitReachedError } from '../../domain/errors.js';
import type { FoundVideo } from '../../domain/subscription/events.js';
import type { LiveSubscriptionState } from '../../domain/subscription/state.js';
import { ExtractorUnavailableError, ListingsBusyError, VideoNotDownloadableError } from '../errors.js';
import type { ListChannel } from '../lookups/list-channel.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';
import { type SubscriptionCommandHandler, subscriptionCorrelation } from './subscription-commands.js';

/** The newest items a regular check lists (3 `channel_list` units at most): more uploads than this between two checks are missed. */
export const CHECK_LISTING_SIZE = 30;

/** Canonical `{ videoId, videoUrl }` of a listed entry's URL; null for one that is not a video of the platform. */
export type ListedVideoIdentity = (url: string) => { videoId: string; videoUrl: string } | null;

export interface RunSubscriptionCheckDependencies {
  readonly subscriptions: SubscriptionCommandHandler;
  readonly listChannel: ListChannel;
  readonly identify: ListedVideoIdentity;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  /** A check started longer ago than this is taken over: its worker is gone (the listing's own bound, and some). */
  readonly takeOverAfterMs: number;
}

/**
 * Runs one due check: claims it in the subscription's stream (so two
 * schedulers never run it together), lists the source as `/list-channel`
 * does, charged the same way, and records what it saw. A failed listing is
 * recorded too, and the next check comes at its regular time, by when a
 * platform's bot-check back-off has passed. Whether it ran.
 */
export class RunSubscriptionCheck {
  constructor(private readonly deps: RunSubscriptionCheckDependencies) {}

  async run(subscriptionId: string): Promise<boolean> {
    const checkId = this.deps.ids.next();
    const context = subscriptionCorrelation(subscriptionId);
    const { takeOverAfterMs } = this.deps;
    const { events, state } = await this.deps.subscriptions.handle(
      subscriptionId,
      { type: 'StartCheck', data: { subscriptionId, checkId, takeOverAfterMs, now: this.now() } },
      context,
    );
    if (events.length === 0 || state.status === 'none' || state.status === 'deleted') return false;
    try {
      const { listed, listingUnits } = await this.list(state);
      await this.deps.subscriptions.handle(
        subscriptionId,
        { type: 'CompleteCheck', data: { subscriptionId, checkId, listed, listingUnits, now: this.now() } },
        context,
      );
    } catch (error) {
      const errorCode = error instanceof VideoNotDownloadableError ? error.code : null;
      const reason = failureReason(error);
      await this.deps.subscriptions.handle(
        subscriptionId,
        { type: 'FailCheck', data: { subscriptionId, checkId, errorCode, reason, notBefore: null, now: this.now() } },
        context,
      );
    }
    return true;
  }

  private async list(state: LiveSubscriptionState): Promise<{ listed: FoundVideo[]; listingUnits: number }> {
    const { subscriptionId, accountId, source, start } = state.created;
    const firstTake = !state.firstCheckDone && start.kind === 'latest' ? start.count : 0;
    const maxVideos = Math.max(CHECK_LISTING_SIZE, firstTake);
    const listing = await this.deps.listChannel.execute({
      accountId,
      channelUrl: source.url,
      maxVideos,
      correlationId: subscriptionCorrelation(subscriptionId).correlationId,
    });
    const listed = listing.entries.flatMap(({ url, title }): FoundVideo[] => {
      const identity = this.deps.identify(url);
      return identity === null ? [] : [{ ...identity, title: typeof title === 'string' ? title : null }];
    });
    return { listed, listingUnits: Math.min(channelListUnits(maxVideos), channelListUnits(listing.entries.length)) };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** What the account reads as the last check's failure: the platform's or the account's words, never a stack. */
function failureReason(error: unknown): string {
  if (
    error instanceof VideoNotDownloadableError ||
    error instanceof CreditLimitReachedError ||
    error instanceof AddOnNotEnabledError ||
    error instanceof AccountRefusedError ||
    error instanceof ExtractorUnavailableError ||
    error instanceof ListingsBusyError
  )
    return error.message;
  return 'The listing failed; the next check tries again';
}
