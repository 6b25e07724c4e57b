import type { Logger } from '../../../application/ports/logger.js';
import type { EventStreamConnections } from './event-stream-connections.js';

export interface RevokedStreamSweepOptions {
  /** Whether the key is still active, as the read model says. */
  isStillActive(keyId: string): Promise<boolean>;
  logger: Logger;
  /** Pause before a key that could not be checked is checked again. */
  retryMs?: number;
  /** Checks of one key before it is left to the check before each terminal body. */
  attempts?: number;
}

/**
 * Ends the open streams whose key was revoked while no revocation notice could
 * be heard (the listening connection was down when the notice was sent, so it
 * is lost for good): each key of an open stream is checked against the read
 * model. A key that cannot be checked (the database just came back, say) is
 * tried again a few times rather than cutting its streams, which would make
 * every client reconnect after each blip.
 */
export class RevokedStreamSweep {
  constructor(
    private readonly connections: EventStreamConnections,
    private readonly options: RevokedStreamSweepOptions,
  ) {}

  /** Resolves once every key open now was checked, or given up on. */
  async run(): Promise<void> {
    await Promise.all(this.connections.keyIds().map((keyId) => this.check(keyId)));
  }

  private async check(keyId: string): Promise<void> {
    const attempts = this.options.attempts ?? 5;
    for (let attempt = 1; ; attempt += 1) {
      try {
        if (!(await this.options.isStillActive(keyId))) this.connections.closeKey(keyId);
        return;
      } catch (error) {
        if (attempt >= attempts) {
          this.options.logger.warn(
            { keyId, err: error },
            'could not check whether the key of open event streams was revoked meanwhile',
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, this.options.retryMs ?? 1_000).unref());
      }
    }
  }
}
