import type { Extractor, VideoMetadata } from '../ports/extractor.js';

export interface VideoLookupOptions {
  /** How long a looked-up video's metadata is reused. */
  ttlMs: number;
  maxEntries: number;
  /** Extractor processes allowed at once for lookups. */
  concurrency: number;
  now?: () => number;
}

/**
 * Metadata lookups for submissions: concurrent requests for one video share
 * one extractor run, recent answers are reused, and the number of extractor
 * processes is bounded, so a burst of submissions does not fork a burst of
 * extractors. Failures are not cached.
 */
export class VideoLookup {
  private readonly cache = new Map<string, { value: VideoMetadata; expiresAt: number }>();
  private readonly inFlight = new Map<string, Promise<VideoMetadata>>();
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly now: () => number;

  constructor(
    private readonly extractor: Extractor,
    private readonly options: VideoLookupOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  lookup(url: string): Promise<VideoMetadata> {
    const cached = this.cache.get(url);
    if (cached !== undefined && cached.expiresAt > this.now()) return Promise.resolve(cached.value);
    const pending = this.inFlight.get(url);
    if (pending !== undefined) return pending;
    const lookup = this.withSlot(() => this.extractor.probe(url))
      .then((value) => {
        this.remember(url, value);
        return value;
      })
      .finally(() => this.inFlight.delete(url));
    this.inFlight.set(url, lookup);
    return lookup;
  }

  private remember(url: string, value: VideoMetadata): void {
    this.cache.delete(url);
    this.cache.set(url, { value, expiresAt: this.now() + this.options.ttlMs });
    while (this.cache.size > this.options.maxEntries) {
      const oldest = this.cache.keys().next().value as string;
      this.cache.delete(oldest);
    }
  }

  private async withSlot<T>(work: () => Promise<T>): Promise<T> {
    while (this.active >= this.options.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await work();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}
