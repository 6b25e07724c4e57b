import type { Checkpoint, RecordedEvent, Subscription } from '../../../application/ports/event-store.js';

type ReadBatch = (after: Checkpoint | null, maxCount: number) => Promise<RecordedEvent[]>;
type WaitForNews = (timeoutMs: number, signal: AbortSignal) => Promise<boolean>;

/**
 * Reads batches after its position; when there are none, waits for a
 * notification or a poll. A notified event can still be hidden behind an
 * older transaction that has not committed (the xmin gate), so after a
 * fruitless wake-up it looks again soon, backing off to the poll interval.
 */
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
    let fruitlessReads = 0;
    try {
      while (!this.stopped.signal.aborted) {
        const events = await this.readBatch(after, this.options.batchSize);
        if (this.stopped.signal.aborted) return;
        if (events.length === 0) {
          const delay = Math.min(this.options.pollIntervalMs, 2 * 2 ** fruitlessReads);
          const notified = await this.waitForNews(delay, this.stopped.signal);
          fruitlessReads = notified ? 0 : fruitlessReads + 1;
          continue;
        }
        fruitlessReads = 0;
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
