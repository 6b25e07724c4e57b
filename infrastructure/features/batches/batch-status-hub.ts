import type { BatchView } from '../../../application/batches/batch-read-model.js';
import type { LiveBatch } from '../../../application/batches/live-batch-view.js';
import type { EventStore } from '../../../application/ports/event-store.js';
import type { Logger } from '../../../application/ports/logger.js';
import { BATCH_EVENT_TYPES } from '../../../domain/batch/events.js';
import { StoreFollower } from '../../live/store-follower.js';

/** The batch at one revision, handed to every stream watching it; each renders its own page of it. */
export interface BatchFrame {
  /** The batch stream's revision, plus one: ids only grow, and agree across processes. */
  id: number;
  accountId: string;
  terminal: boolean;
  view: BatchView;
}

export interface BatchWatching {
  /** The newest frame of the batch now; null when there is no such batch. */
  latest(): BatchFrame | null;
  stop(): void;
}

interface WatchedBatch {
  listeners: Set<(frame: BatchFrame) => void>;
  revision: number;
  viewJson: string;
  frame: BatchFrame | null;
  /** Loads run one after another, so frames leave in the order of the stream. */
  loading: Promise<void>;
  loadFailures: number;
}

const TERMINAL = new Set(['completed', 'partial', 'failed', 'cancelled']);
const RELOAD_RETRY_FIRST_MS = 200;
const RELOAD_RETRY_MAX_MS = 5_000;

/**
 * Per API process: follows the batch streams (one subscription, whatever the
 * number of watchers) and hands each watched batch's new body to its watchers,
 * as the job status hub does for jobs. The `batch.finished` delivery events
 * share the stream but change nothing shown, so they are not followed.
 */
export class BatchStatusHub {
  private readonly watched = new Map<string, WatchedBatch>();
  private follower: StoreFollower | null = null;

  constructor(
    private readonly deps: { store: EventStore; load: (batchId: string) => Promise<LiveBatch>; logger: Logger },
  ) {}

  async start(): Promise<void> {
    this.follower = new StoreFollower({
      name: 'live batch status',
      store: this.deps.store,
      after: await this.deps.store.headPosition(),
      filter: { streamPrefixes: ['batch-'], eventTypes: BATCH_EVENT_TYPES },
      onEvents: (events) => {
        for (const event of events) {
          const batch = this.watched.get(String(event.data.batchId));
          if (batch !== undefined) this.reload(String(event.data.batchId), batch);
        }
      },
      logger: this.deps.logger,
    });
    this.follower.start();
  }

  async stop(): Promise<void> {
    await this.follower?.stop();
  }

  /** False while the batch streams cannot be followed: watchers would miss changes. */
  get following(): boolean {
    return this.follower?.following ?? false;
  }

  /** Starts handing `listener` the batch's frames; `latest()` gives the one to send first. Throws when it cannot be read. */
  async watch(batchId: string, listener: (frame: BatchFrame) => void): Promise<BatchWatching> {
    let batch = this.watched.get(batchId);
    if (batch === undefined) {
      batch = {
        listeners: new Set(),
        revision: -1,
        viewJson: '',
        frame: null,
        loading: Promise.resolve(),
        loadFailures: 0,
      };
      this.watched.set(batchId, batch);
      // The first load's failure reaches the watcher (a 500, not a 404); later reloads log theirs and are tried again.
      batch.loading = this.load(batchId, batch);
    }
    const watchedBatch = batch;
    watchedBatch.listeners.add(listener);
    const stop = () => {
      watchedBatch.listeners.delete(listener);
      if (watchedBatch.listeners.size === 0 && this.watched.get(batchId) === watchedBatch) this.watched.delete(batchId);
    };
    try {
      await watchedBatch.loading;
    } catch (error) {
      stop();
      throw error;
    }
    return { latest: () => watchedBatch.frame, stop };
  }

  private reload(batchId: string, batch: WatchedBatch): void {
    batch.loading = batch.loading
      .catch(() => undefined)
      .then(() => this.load(batchId, batch))
      .then(
        () => {
          batch.loadFailures = 0;
        },
        (error: unknown) => {
          // No later event may come (the batch may have just finished): its watchers get this change once the store answers.
          batch.loadFailures += 1;
          this.deps.logger.warn({ err: error, batchId }, 'could not load a watched batch; trying again');
          const delay = Math.min(RELOAD_RETRY_MAX_MS, RELOAD_RETRY_FIRST_MS * 2 ** batch.loadFailures);
          setTimeout(() => {
            if (this.watched.get(batchId) === batch) this.reload(batchId, batch);
          }, delay).unref();
        },
      );
  }

  private async load(batchId: string, batch: WatchedBatch): Promise<void> {
    const { view, revision } = await this.deps.load(batchId);
    if (revision <= batch.revision) return;
    batch.revision = revision;
    const viewJson = JSON.stringify(view);
    if (viewJson === batch.viewJson) return;
    batch.viewJson = viewJson;
    if (view === null) {
      batch.frame = null;
      return;
    }
    const frame = { id: revision + 1, accountId: view.accountId, terminal: TERMINAL.has(view.status), view };
    batch.frame = frame;
    for (const listener of batch.listeners) listener(frame);
  }
}
