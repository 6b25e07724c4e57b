import type { WindowCount, WindowCounter } from './window-counter.js';

/** The embedded mode's counter: one process serves every request, so its memory is the shared count. */
export class MemoryWindowCounter implements WindowCounter {
  /** Epoch second → bucket → points; seconds before the last one counted are dropped as time moves on. */
  private readonly seconds = new Map<number, Map<string, number>>();

  async add(bucket: string, epochSecond: number, limit: number, points: number): Promise<WindowCount> {
    this.forgetBefore(epochSecond - 1);
    let counts = this.seconds.get(epochSecond);
    if (counts === undefined) {
      counts = new Map();
      this.seconds.set(epochSecond, counts);
    }
    const counted = (counts.get(bucket) ?? 0) + points;
    if (counted > limit) return { allowed: false, remaining: 0 };
    counts.set(bucket, counted);
    return { allowed: true, remaining: limit - counted };
  }

  private forgetBefore(epochSecond: number): void {
    for (const second of this.seconds.keys()) if (second < epochSecond) this.seconds.delete(second);
  }
}
