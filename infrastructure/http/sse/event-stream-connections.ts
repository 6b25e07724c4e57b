import { HttpError } from '../http-error.js';
import type { EventStream } from './event-stream.js';

export interface EventStreamLimits {
  perKey: number;
  max: number;
  heartbeatMs: number;
  /** A stream whose bytes waited this long without the client taking any is cut off. */
  stallTimeoutMs: number;
}

/** How often streams are looked at for stalls: often enough that a stall is cut within about a second of its timeout. */
const STALL_CHECK_MS = 1_000;

/**
 * The open event streams of this process: their limits (per API key and in
 * all), one heartbeat timer and one stall check for all of them rather than
 * one each, and closing them (all at shutdown, which they would otherwise
 * hold up; a key's when it is revoked).
 */
export class EventStreamConnections {
  /** Each stream with the function that ends it from outside: it stops watching, then ends the body. */
  private readonly streams = new Map<EventStream, () => void>();
  private readonly perKey = new Map<string, number>();
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly limits: EventStreamLimits) {}

  get size(): number {
    return this.streams.size;
  }

  /** Takes a place for one more stream of `keyId`, or answers 429; call the returned function when it ends. */
  admit(keyId: string): () => void {
    const ofKey = this.perKey.get(keyId) ?? 0;
    if (ofKey >= this.limits.perKey)
      throw new HttpError(429, `Too many open event streams for this API key (at most ${this.limits.perKey})`);
    if (this.streams.size >= this.limits.max)
      throw new HttpError(
        429,
        `Too many open event streams on this server (at most ${this.limits.max}); retry later`,
        undefined,
        { 'Retry-After': '5' },
      );
    this.perKey.set(keyId, ofKey + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.perKey.get(keyId) ?? 1) - 1;
      if (left === 0) this.perKey.delete(keyId);
      else this.perKey.set(keyId, left);
    };
  }

  /** Keeps `stream` until `remove`, which comes when its connection closes; `close` ends it from outside. */
  add(stream: EventStream, close: () => void): void {
    this.streams.set(stream, close);
    if (this.timers.length > 0) return;
    this.timers = [
      setInterval(() => this.ping(), this.limits.heartbeatMs).unref(),
      setInterval(() => this.checkStalls(), Math.min(STALL_CHECK_MS, this.limits.stallTimeoutMs)).unref(),
    ];
  }

  remove(stream: EventStream): void {
    this.streams.delete(stream);
    if (this.streams.size > 0) return;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  closeAll(): void {
    for (const close of [...this.streams.values()]) close();
  }

  /** The keys that open streams were opened with, each once. */
  keyIds(): string[] {
    return [...new Set([...this.streams.keys()].map((stream) => stream.keyId))];
  }

  /** Ends the streams opened with a key that was just revoked: they send nothing more. */
  closeKey(keyId: string): void {
    for (const [stream, close] of [...this.streams]) if (stream.keyId === keyId) close();
  }

  /** Comments keep proxies from closing streams that have been quiet. */
  private ping(): void {
    for (const stream of [...this.streams.keys()]) stream.write(': ping\n\n');
  }

  private checkStalls(): void {
    const now = Date.now();
    for (const stream of [...this.streams.keys()]) stream.checkStall(now, this.limits.stallTimeoutMs);
  }
}
