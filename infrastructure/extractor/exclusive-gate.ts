/**
 * Many runs at once, or one exclusive task alone: the exclusive task waits
 * for the runs under way and holds back new ones until it is done, so
 * replacing the program never happens under a running download.
 */
export class ExclusiveGate {
  private running = 0;
  private exclusive: Promise<void> | null = null;
  private drained: (() => void) | null = null;

  async shared<T>(task: () => Promise<T>): Promise<T> {
    while (this.exclusive !== null) await this.exclusive;
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      if (this.running === 0) this.drained?.();
    }
  }

  async alone<T>(task: () => Promise<T>): Promise<T> {
    while (this.exclusive !== null) await this.exclusive;
    let release!: () => void;
    this.exclusive = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      if (this.running > 0) {
        await new Promise<void>((resolve) => {
          this.drained = resolve;
        });
        this.drained = null;
      }
      return await task();
    } finally {
      this.exclusive = null;
      release();
    }
  }
}
