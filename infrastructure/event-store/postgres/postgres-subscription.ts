import type { Checkpoint, RecordedEvent, Subscription } from '../../../application/ports/event-store.js';

type ReadBatch = (after: Checkpoint | null, maxCount: number) => Promise<RecordedEvent[]>;
type WaitForNews = (timeoutMs: number, signal: AbortSignal) => Promise<void>;

/** Reads batches after its position; when there are none, waits for a notification or the poll interval. */
export class PostgresSubscription implements Subscription {
  private readonly stopped = new AbortController();

  constructor(
    private readonly readBatch: ReadBatch,
    private readonly waitForNews: WaitForNews,
    private readonly options: { after: Checkpoint | null; batchSize: number; pollIntervalMs: number },
    private readonly onClose: () => void,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent[]> {
    let after = this.options.after;
    try {
      while (!this.stopped.signal.aborted) {
        const events = await this.readBatch(after, this.options.batchSize);
        if (this.stopped.signal.aborted) return;
        if (events.length === 0) {
          await this.waitForNews(this.options.pollIntervalMs, this.stopped.signal);
          continue;
        }
        after = events[events.length - 1].position;
        yield events;
      }
    } finally {
      this.onClose();
    }
  }

  async close(): Promise<void> {
    this.stopped.abort();
    this.onClose();
  }
}
