import type { Writable } from 'node:stream';
import { HttpError } from '../http-error.js';

export interface EventStreamLimits {
  perKey: number;
  max: number;
  heartbeatMs: number;
}

/**
 * The open event streams of this process: their limits (per API key and in
 * all), one heartbeat timer for all of them rather than one each, and
 * closing them all at shutdown, since they would otherwise hold it up.
 */
export class EventStreamConnections {
  private readonly streams = new Set<Writable>();
  private readonly perKey = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | null = null;

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

  add(stream: Writable): void {
    this.streams.add(stream);
    this.heartbeat ??= setInterval(() => this.ping(), this.limits.heartbeatMs).unref();
  }

  remove(stream: Writable): void {
    this.streams.delete(stream);
    if (this.streams.size === 0 && this.heartbeat !== null) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
  }

  closeAll(): void {
    for (const stream of [...this.streams]) stream.end();
  }

  /** Comments keep proxies from closing streams that have been quiet. */
  private ping(): void {
    for (const stream of this.streams) stream.write(': ping\n\n');
  }
}
