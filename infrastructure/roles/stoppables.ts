import type { Logger } from '../../application/ports/logger.js';

interface Stoppable {
  name: string;
  stop(): Promise<void>;
}

/**
 * What a role has started, stopped in the order given, the parts added with `addLast` after all the others; one part
 * failing to stop does not keep the others running.
 */
export class Stoppables {
  private readonly parts: Stoppable[] = [];
  private readonly lastParts: Stoppable[] = [];

  constructor(private readonly logger: Logger) {}

  add(name: string, stop: () => Promise<void>): void {
    this.parts.push({ name, stop });
  }

  /** A part the others still use while they stop (work draining needs its fork server and cancellations): stopped after them. */
  addLast(name: string, stop: () => Promise<void>): void {
    this.lastParts.push({ name, stop });
  }

  /** Runs `start`; when it throws, stops whatever it had added before rethrowing. */
  async starting<T>(start: () => Promise<T>): Promise<T> {
    try {
      return await start();
    } catch (error) {
      await this.stopAll();
      throw error;
    }
  }

  async stopAll(): Promise<void> {
    for (const part of [...this.parts.splice(0), ...this.lastParts.splice(0)]) {
      try {
        await part.stop();
      } catch (error) {
        this.logger.error({ err: error, part: part.name }, 'failed to stop cleanly');
      }
    }
  }
}
