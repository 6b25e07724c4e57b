import { channelListUnits } from '../../domain/account/lookups.js';
import { AccountRefusedError, AddOnNotEnabledError, CreditLimitReachedError } from '../../domain/errors.js';
import type { ListedVideo } from '../../domain/batch/source.js';
import type { RequestedBatchState } from '../../domain/batch/state.js';
import { VideoNotDownloadableError } from '../errors.js';
import type { ListChannel } from '../lookups/list-channel.js';
import type { Clock } from '../ports/clock.js';
import { type BatchCommandHandler, batchCorrelation } from './batch-commands.js';

/** Rebuilds a listed entry's URL in its canonical form; null for one that is not a video URL of the platform. */
export type CanonicalVideoUrl = (url: string) => string | null;

export interface ListBatchSourceDependencies {
  readonly batches: BatchCommandHandler;
  readonly listChannel: ListChannel;
  readonly canonicalVideoUrl: CanonicalVideoUrl;
  readonly clock: Clock;
}

/**
 * Lists a batch's playlist or channel as `/list-channel` does, with the same
 * reservation and charge (1 `channel_list` unit per 10 items), and records
 * the videos found. A listing the platform or the account refuses for good
 * fails the batch; a passing failure is thrown, so the listing is tried again.
 */
export class ListBatchSource {
  constructor(private readonly deps: ListBatchSourceDependencies) {}

  async list(state: RequestedBatchState): Promise<void> {
    const { batchId, accountId, source, maxVideos } = state.request;
    if (source.kind === 'urls' || state.videos !== null || state.listingFailed) return;
    const context = batchCorrelation(batchId);
    try {
      const listing = await this.deps.listChannel.execute({
        accountId,
        channelUrl: source.url,
        maxVideos,
        correlationId: context.correlationId,
      });
      const videos = listing.entries.flatMap(({ url, title }): ListedVideo[] => {
        const videoUrl = this.deps.canonicalVideoUrl(url);
        return videoUrl === null ? [] : [{ videoUrl, title }];
      });
      const listingUnits = Math.min(channelListUnits(maxVideos), channelListUnits(listing.entries.length));
      await this.deps.batches.handle(
        batchId,
        { type: 'RecordListing', data: { batchId, videos, listingUnits, now: this.now() } },
        context,
      );
    } catch (error) {
      const lasting = lastingFailure(error);
      if (lasting === null) throw error;
      await this.deps.batches.handle(
        batchId,
        { type: 'FailListing', data: { batchId, ...lasting, now: this.now() } },
        context,
      );
    }
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

function lastingFailure(
  error: unknown,
): { errorCode: VideoNotDownloadableError['code'] | null; reason: string } | null {
  if (error instanceof VideoNotDownloadableError) return { errorCode: error.code, reason: error.message };
  if (
    error instanceof CreditLimitReachedError ||
    error instanceof AddOnNotEnabledError ||
    error instanceof AccountRefusedError
  )
    return { errorCode: null, reason: error.message };
  return null;
}
