import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { SupervisedChild } from '../run-process.js';

/**
 * One download forked by the fork server, seen as a child process: its output arrives through the server and it
 * closes with its exit code (null when a signal killed it) once the server reports its end, or with null when the
 * server died under it.
 */
export class ForkedRun extends EventEmitter implements SupervisedChild {
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  /** Its process id (the leader of its process group) once the server has forked it. */
  pid: number | undefined;
  private ended = false;

  get hasEnded(): boolean {
    return this.ended;
  }

  forked(pid: number): void {
    this.pid = pid;
  }

  output(fd: number, data: Buffer): void {
    if (!this.ended) (fd === 2 ? this.stderr : this.stdout).write(data);
  }

  /** Exit status as the server reports it: the code, or minus the signal that killed it. */
  exited(status: number | null): void {
    if (this.ended) return;
    this.ended = true;
    this.stdout.end();
    this.stderr.end();
    const code = status === null || status < 0 ? null : status;
    // After the streams' last data, as a child process's 'close' comes after its output.
    setImmediate(() => this.emit('close', code));
  }
}
