/** Raised at once, instead of queueing, when a requester or everyone already has as much waiting as allowed. */
export class SlotsFullError extends Error {
  constructor(readonly scope: 'requester' | 'everyone') {
    super(
      scope === 'requester' ? 'Too much work of this requester is already waiting' : 'Too much work is already waiting',
    );
    this.name = 'SlotsFullError';
  }
}

export interface FairSlotsOptions {
  /** Work running at once, across requesters. */
  concurrency: number;
  /** Work of one requester running or waiting; more is refused. */
  maxPerRequester: number;
  /** Work waiting across requesters; more is refused. */
  maxWaiting: number;
}

/**
 * A bounded number of slots shared fairly by requesters: a free slot goes to
 * the waiting requester that runs the least work now (the longest waiting
 * among equals), not to the oldest work, so one requester's burst delays
 * another's single item by at most one item's run. Queues are bounded per
 * requester and overall, and a full queue refuses at once.
 */
export class FairSlots {
  private running = 0;
  private waitingCount = 0;
  private readonly runningPer = new Map<string, number>();
  /** Waiters per requester; Map order is the round-robin order. */
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly held = new Map<string, number>();

  constructor(private readonly options: FairSlotsOptions) {}

  async run<T>(requester: string, work: () => Promise<T>): Promise<T> {
    const holding = this.held.get(requester) ?? 0;
    if (holding >= this.options.maxPerRequester) throw new SlotsFullError('requester');
    const mustWait = this.running >= this.options.concurrency;
    if (mustWait && this.waitingCount >= this.options.maxWaiting) throw new SlotsFullError('everyone');
    this.held.set(requester, holding + 1);
    try {
      if (mustWait) await this.enqueue(requester);
      else this.running += 1;
      this.runningPer.set(requester, (this.runningPer.get(requester) ?? 0) + 1);
      try {
        return await work();
      } finally {
        const runs = (this.runningPer.get(requester) ?? 1) - 1;
        if (runs === 0) this.runningPer.delete(requester);
        else this.runningPer.set(requester, runs);
        this.release();
      }
    } finally {
      const left = (this.held.get(requester) ?? 1) - 1;
      if (left === 0) this.held.delete(requester);
      else this.held.set(requester, left);
    }
  }

  private enqueue(requester: string): Promise<void> {
    this.waitingCount += 1;
    return new Promise<void>((resolve) => {
      const queue = this.waiting.get(requester);
      if (queue === undefined) this.waiting.set(requester, [resolve]);
      else queue.push(resolve);
    });
  }

  /** Hands the slot straight to the waiting requester running the least, or frees it. */
  private release(): void {
    let chosen: [string, Array<() => void>] | undefined;
    for (const entry of this.waiting) {
      if (chosen === undefined || (this.runningPer.get(entry[0]) ?? 0) < (this.runningPer.get(chosen[0]) ?? 0))
        chosen = entry;
    }
    if (chosen === undefined) {
      this.running -= 1;
      return;
    }
    const [requester, queue] = chosen;
    const wake = queue.shift() as () => void;
    // Served requesters go to the back of the line among equals.
    this.waiting.delete(requester);
    if (queue.length > 0) this.waiting.set(requester, queue);
    this.waitingCount -= 1;
    wake();
  }
}
