import { FairSlots, SlotsFullError } from '../fair-slots.js';
import type { VideoMetadata, VideoProber } from '../ports/extractor/video-prober.js';

export interface VideoLookupOptions {
  /** How long a looked-up video's metadata is reused. */
  ttlMs: number;
  maxEntries: number;
  /** Extractor processes allowed at once for lookups. */
  concurrency: number;
  /** Lookups of one requester running or waiting; more are refused at once. */
  maxPerRequester: number;
  /** Lookups waiting across requesters; more are refused at once. */
  maxWaiting: number;
  now?: () => number;
}

/** The lookup queue is full: the caller should come back after `retryAfterSeconds`. */
export class LookupQueueFullError extends Error {
  constructor(
    readonly scope: 'requester' | 'everyone',
    readonly retryAfterSeconds: number,
  ) {
    super(
      scope === 'requester'
        ? 'Too many video lookups of this account are under way'
        : 'Too many video lookups are under way',
    );
    this.name = 'LookupQueueFullError';
  }
}

const ANONYMOUS = '';

/**
 * Metadata lookups for submissions, keyed by the video's canonical URL (one
 * spelling per video, so query noise cannot defeat the cache): concurrent
 * requests for one video share one extractor run, recent answers are reused,
 * and extractor processes are shared fairly between requesters with bounded
 * queues, so one account's burst neither forks a burst of extractors nor
 * stalls everyone else. Failures are not cached.
 */
export class VideoLookup {
  private readonly cache = new Map<string, { value: VideoMetadata; expiresAt: number }>();
  private readonly inFlight = new Map<string, Promise<VideoMetadata>>();
  private readonly slots: FairSlots;
  private readonly now: () => number;
  /** A running average of how long one lookup takes, for Retry-After. */
  private averageMs = 2_000;

  constructor(
    private readonly extractor: VideoProber,
    private readonly options: VideoLookupOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.slots = new FairSlots({
      concurrency: options.concurrency,
      maxPerRequester: options.maxPerRequester,
      maxWaiting: options.maxWaiting,
    });
  }

  /** `canonicalUrl` must be the one spelling of the video; `requester` (an account) is whose turn the lookup takes. */
  lookup(canonicalUrl: string, requester: string = ANONYMOUS): Promise<VideoMetadata> {
    const cached = this.cache.get(canonicalUrl);
    if (cached !== undefined && cached.expiresAt > this.now()) return Promise.resolve(cached.value);
    const pending = this.inFlight.get(canonicalUrl);
    if (pending !== undefined) return pending;
    const lookup = this.probe(canonicalUrl, requester)
      .then((value) => {
        this.remember(canonicalUrl, value);
        return value;
      })
      .finally(() => this.inFlight.delete(canonicalUrl));
    this.inFlight.set(canonicalUrl, lookup);
    return lookup;
  }

  private async probe(url: string, requester: string): Promise<VideoMetadata> {
    try {
      return await this.slots.run(requester, async () => {
        const started = this.now();
        try {
          return await this.extractor.probe(url);
        } finally {
          this.averageMs = 0.8 * this.averageMs + 0.2 * Math.max(0, this.now() - started);
        }
      });
    } catch (error) {
      if (error instanceof SlotsFullError)
        throw new LookupQueueFullError(error.scope, Math.max(1, Math.ceil(this.averageMs / 1000)));
      throw error;
    }
  }

  private remember(url: string, value: VideoMetadata): void {
    this.cache.delete(url);
    this.cache.set(url, { value, expiresAt: this.now() + this.options.ttlMs });
    while (this.cache.size > this.options.maxEntries) {
      const oldest = this.cache.keys().next().value as string;
      this.cache.delete(oldest);
    }
  }
}
