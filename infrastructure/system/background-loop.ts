/**
 * The start and stop of a loop that runs until its signal aborts: starting twice
 * is a no-op, and stop waits until the loop has ended.
 */
export abstract class BackgroundLoop {
  private stopController: AbortController | null = null;
  private running: Promise<void> | null = null;

  start(): void {
    if (this.running !== null) return;
    const stop = new AbortController();
    this.stopController = stop;
    this.running = this.run(stop.signal);
  }

  async stop(): Promise<void> {
    this.stopController?.abort();
    await this.running;
    this.running = null;
    this.stopController = null;
  }

  protected abstract run(stop: AbortSignal): Promise<void>;
}
