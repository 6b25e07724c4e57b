import type { JobFrame } from '../../live/job-status-hub.js';
import type { EventStream } from './event-stream.js';

/**
 * What one stream sends of a job's frames: those newer than the last id the
 * client has, and after the terminal one (sent or already had) nothing; the
 * stream then ends.
 */
export class JobFrameSender {
  private open = false;
  private done = false;

  constructor(
    private readonly stream: EventStream,
    private lastId: number,
    private readonly finish: () => void,
  ) {}

  /** The stream's headers are out: from now on frames are sent, starting with `latest`. */
  start(latest: JobFrame | null): void {
    this.open = true;
    if (latest !== null) this.send(latest);
  }

  send(frame: JobFrame): void {
    if (!this.open || this.done) return;
    if (frame.id > this.lastId) {
      this.lastId = frame.id;
      this.stream.write(frame.text);
    }
    if (!frame.terminal) return;
    this.done = true;
    this.finish();
  }
}
