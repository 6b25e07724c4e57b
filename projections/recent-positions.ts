import type { Checkpoint } from '../application/ports/event-store.js';

/**
 * The positions of the last few thousand events a processor committed.
 * Positions are opaque and only comparable for equality, so "has this event
 * been handled?" is answered by remembering, not by ordering.
 */
export class RecentPositions {
  private readonly order: Checkpoint[] = [];
  private readonly members = new Set<Checkpoint>();

  constructor(private readonly capacity = 10_000) {}

  add(positions: Iterable<Checkpoint>): void {
    for (const position of positions) {
      if (this.members.has(position)) continue;
      this.members.add(position);
      this.order.push(position);
      if (this.order.length > this.capacity) this.members.delete(this.order.shift() as Checkpoint);
    }
  }

  has(position: Checkpoint): boolean {
    return this.members.has(position);
  }

  clear(): void {
    this.order.length = 0;
    this.members.clear();
  }
}
