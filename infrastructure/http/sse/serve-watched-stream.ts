import type { Context } from 'koa';
import type { Authenticate } from '../../../application/accounts/authenticate.js';
import type { JobFrame } from '../../live/job-status-hub.js';
import { HttpError } from '../http-error.js';
import { EventStream } from './event-stream.js';
import type { EventStreamConnections } from './event-stream-connections.js';
import { JobFrameSender } from './job-frame-sender.js';

/** What a status hub gives one watcher of a job or a batch. */
export interface StreamWatching<Frame> {
  /** The newest frame now; null when there is no such job or batch. */
  latest(): Frame | null;
  stop(): void;
}

export interface WatchedStreamRequest<Frame extends { accountId: string }> {
  accountId: string;
  keyId: string;
  /** The id of the last event the client has (from `Last-Event-ID`); -1 without one. */
  lastId: number;
  connections: EventStreamConnections;
  authenticate: Authenticate;
  watch(onFrame: (frame: Frame) => void): Promise<StreamWatching<Frame>>;
  /** The frame as the stream sends it. */
  toText(frame: Frame): JobFrame;
  /** The 404 message for a job or batch that does not exist or is another account's. */
  notFound: string;
}

/**
 * Answers a job's or a batch's watch request with its frames as Server-Sent
 * Events, with Koa's own streaming (a PassThrough as the body): the stream
 * counts against the key's and the process's limits, keeps its place until
 * its connection closes (not merely until its body ends), and is closed when
 * its key is revoked.
 */
export async function serveWatchedStream<Frame extends { accountId: string }>(
  ctx: Context,
  request: WatchedStreamRequest<Frame>,
): Promise<void> {
  const { keyId, connections } = request;
  const release = connections.admit(keyId);
  const stream = new EventStream(keyId, ctx.res);
  let watching: StreamWatching<Frame> | null = null;
  let closed = false;
  const finish = () => {
    watching?.stop();
    watching = null;
    stream.end();
  };
  const frames = new JobFrameSender(stream, request.lastId, () => request.authenticate.isStillActive(keyId), finish);
  // Listened for before the job is loaded: a client that leaves meanwhile must not keep its place.
  ctx.res.once('close', () => {
    closed = true;
    finish();
    release();
    connections.remove(stream);
  });
  watching = await request.watch((frame) => frames.send(request.toText(frame)));
  if (closed) return finish();
  const current = watching.latest();
  if (current === null || current.accountId !== request.accountId) {
    finish();
    throw new HttpError(404, request.notFound);
  }
  ctx.req.socket.setTimeout(0);
  ctx.status = 200;
  ctx.type = 'text/event-stream';
  ctx.set({ 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  ctx.body = stream.body;
  connections.add(stream, finish);
  stream.write('retry: 3000\n\n');
  frames.start(request.toText(current));
}

/** The id of the last event the client has, as the documents allow it (digits); -1 without one. */
export function lastEventId(given: string | undefined): number {
  // Past 2^53 the number is rounded, but stays above every frame id, which is all it is compared with.
  return given === undefined ? -1 : Number(given);
}
