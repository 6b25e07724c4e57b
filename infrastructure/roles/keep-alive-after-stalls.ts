import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long an idle keep-alive connection stays open past the timeout the server announces (plus Node's own second).
 * Clients reuse an idle connection until their own timer says it is too old; on a busy machine that timer runs late,
 * and a request sent just after the server closed meets a reset. Closing later than announced costs an idle socket
 * for a few seconds; closing on time costs a client a failed request.
 */
const LATE_CLIENT_GRACE_MS = 5_000;

/**
 * A connection's keep-alive timeout must not close it once its next request
 * has arrived. Node checks its timers before it reads sockets, so after the
 * event loop was held up past the timeout (a long synchronous stretch, such
 * as the embedded database's, or a starved machine) it closes a connection
 * whose client has already sent the next request: the unread bytes make the
 * close a reset, and the client gets ECONNRESET for a request the server
 * received. Here the close waits `graceMs` (after which the sockets have been
 * read again), and is dropped if bytes came meanwhile.
 */
export function keepAliveAfterStalls(server: Server, graceMs = LATE_CLIENT_GRACE_MS): void {
  // With a listener, Node leaves timed-out sockets to it. Only idle keep-alive
  // connections time out here: the server sets no other socket timeout.
  server.on('timeout', (socket: Socket) => {
    const readBefore = socket.bytesRead;
    const closeIfStillIdle = () => {
      if (socket.destroyed || socket.bytesRead !== readBefore) return;
      socket.destroy();
    };
    if (graceMs === 0) setImmediate(closeIfStillIdle);
    else setTimeout(closeIfStillIdle, graceMs).unref();
  });
}
