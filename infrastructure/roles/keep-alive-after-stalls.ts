import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A connection's keep-alive timeout must not close it once its next request
 * has arrived. Node checks its timers before it reads sockets, so after the
 * event loop was held up past the timeout (a long synchronous stretch, such
 * as the embedded database's, or a starved machine) it closes a connection
 * whose client has already sent the next request: the unread bytes make the
 * close a reset, and the client gets ECONNRESET for a request the server
 * received. Here the close waits until the sockets have been read once more,
 * and is dropped if bytes came meanwhile.
 */
export function keepAliveAfterStalls(server: Server): void {
  // With a listener, Node leaves timed-out sockets to it. Only idle keep-alive
  // connections time out here: the server sets no other socket timeout.
  server.on('timeout', (socket: Socket) => {
    const readBefore = socket.bytesRead;
    setImmediate(() => {
      if (socket.destroyed || socket.bytesRead !== readBefore) return;
      socket.destroy();
    });
  });
}
