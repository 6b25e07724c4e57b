import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
};

/** The status and message for what Node's HTTP parser refused before any handler saw the request. */
function describe(error: NodeJS.ErrnoException): { status: number; message: string } {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request was not received in time' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'Request headers are too large' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'Request chunk extensions are too large' };
    default:
      return { status: 400, message: 'Malformed HTTP request' };
  }
}

/**
 * Requests Node's HTTP parser refuses (malformed, headers too large, too
 * slow) are answered like every other error, as JSON `{error}`, and the
 * connection is closed; Node's default answers them in plain text.
 */
export function answerClientErrorsInJson(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response may already be under way on this socket, or the peer is gone: nothing can be said cleanly.
    const responding =
      (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (error.code === 'ECONNRESET' || !socket.writable || responding) {
      socket.destroy();
      return;
    }
    const { status, message } = describe(error);
    const body = JSON.stringify({ error: message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
