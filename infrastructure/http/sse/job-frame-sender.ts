import type { JobFrame } from '../../live/job-status-hub.js';
import type { EventStream } from './event-stream.js';

/**
 * What one stream sends of a job's frames: those newer than the last id the
 * client has, and after the terminal one (sent or already had) nothing; the
 * stream then ends. The terminal body carries a signed download link, so it
 * goes only to a key still active when it is sent, as the read model says:
 * a revocation notice may be on its way, or lost.
 */
export class JobFrameSender {
  private open = false;
  private done = false;

  constructor(
    private readonly stream: EventStream,
    private lastId: number,
    private readonly keyStillActive: () => Promise<boolean>,
    private readonly finish: () => void,
  ) {}

  /** The stream's headers are out: from now on frames are sent, starting with `latest`. */
  start(latest: JobFrame | null): void {
    this.open = true;
    if (latest !== null) this.send(latest);
  }

  send(frame: JobFrame): void {
    if (!this.open || this.done) return;
    const newer = frame.id > this.lastId;
    if (newer) this.lastId = frame.id;
    if (!frame.terminal) {
      if (newer) this.stream.write(frame.text);
      return;
    }
    this.done = true;
    if (!newer) {
      this.finish();
      return;
    }
    // Unconfirmed (the read model unreachable) it is not sent either: the client's reconnection gets it later.
    this.keyStillActive()
      .catch(() => false)
      .then((active) => {
        if (active) this.stream.write(frame.text);
        this.finish();
      });
  }
}
