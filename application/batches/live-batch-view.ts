import { BATCH_CATEGORY } from '../../domain/batch/decider.js';
import { streamName } from '../../domain/stream-name.js';
import type { EventStore } from '../ports/event-store.js';
import type { BatchCommandHandler } from './batch-commands.js';
import type { BatchReadModel, BatchView } from './batch-read-model.js';
import { batchView } from './batch-view.js';

/** A batch as its stream has it now, and the stream revision it was folded at. */
export interface LiveBatch {
  view: BatchView | null;
  revision: number;
}

/**
 * The batch for a live stream: its status and videos folded from its own
 * stream, never from the read model, which lags (a terminal change would be
 * missed); only what the stream does not hold, the titles its jobs' lookups
 * found, is taken from the read model, when it has them.
 */
export class LiveBatchView {
  constructor(
    private readonly batches: BatchCommandHandler,
    private readonly views: BatchReadModel,
    private readonly store: EventStore,
  ) {}

  async load(batchId: string): Promise<LiveBatch> {
    const { state, revision } = await this.batches.load(batchId);
    if (state.status === 'none') return { view: null, revision };
    const folded = await this.views.get(batchId);
    const titles = new Map<string, string | null>();
    for (const video of folded?.videos ?? []) if (video.jobId !== null) titles.set(video.jobId, video.title);
    const listingError = state.listingFailed ? (folded?.listingError ?? (await this.listingError(batchId))) : null;
    return { view: batchView(state, listingError, titles), revision };
  }

  /** Read from the stream only in the rare case the read model has not recorded the failed listing yet. */
  private async listingError(batchId: string): Promise<string | null> {
    const events = await this.store.readStream(streamName(BATCH_CATEGORY, batchId));
    const failed = [...events].reverse().find((event) => event.type === 'BatchListingFailed');
    return failed === undefined ? null : String(failed.data.reason);
  }
}
