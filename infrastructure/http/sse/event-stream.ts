import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';

/** A client this far behind is not reading: it is cut off rather than buffered for. */
const MAX_UNREAD_BYTES = 64 * 1024;

/**
 * One open event stream: the body Koa sends, the response under it and the
 * API key it was opened with. A client that does not read is cut off by
 * destroying its connection: ending the body instead would wait, with the
 * socket and the bytes held for it, for a client that never takes them.
 */
export class EventStream {
  readonly body = new PassThrough();
  private ended = false;
  /** Since when bytes have waited in this process without the client taking any; null while none wait. */
  private waitingSince: number | null = null;
  private flushedAtLastCheck = 0;

  constructor(
    readonly keyId: string,
    private readonly response: ServerResponse,
  ) {}

  /** Writes `text`, unless the stream has ended or the client left too much unread (then it is cut off). */
  write(text: string): void {
    if (this.ended || this.response.destroyed) return;
    if (this.unreadBytes() > MAX_UNREAD_BYTES) this.cutOff();
    else this.body.write(text);
  }

  /** Nothing more is written; the response ends once the client has taken what was. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.body.end();
  }

  /** Destroys the connection, and with it whatever this process still holds for the client. */
  cutOff(): void {
    this.ended = true;
    this.response.destroy();
  }

  /** Cuts the client off once bytes have waited for it `stallTimeoutMs` without any of them leaving this process. */
  checkStall(now: number, stallTimeoutMs: number): void {
    const unread = this.unreadBytes();
    const flushed = this.flushedBytes();
    const moved = flushed !== this.flushedAtLastCheck;
    this.flushedAtLastCheck = flushed;
    if (unread === 0) this.waitingSince = null;
    else if (moved || this.waitingSince === null) this.waitingSince = now;
    else if (now - this.waitingSince >= stallTimeoutMs) this.cutOff();
  }

  /** Bytes written and still in this process: in the body, or in the response and its socket, once the kernel's buffers are full. */
  private unreadBytes(): number {
    return this.body.readableLength + this.body.writableLength + this.response.writableLength;
  }

  /** Bytes the socket has handed to the kernel (a write counts once it has completed). */
  private flushedBytes(): number {
    const socket = this.response.socket;
    return socket === null ? 0 : socket.bytesWritten - socket.writableLength;
  }
}
