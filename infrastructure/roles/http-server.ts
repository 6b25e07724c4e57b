import { type RequestListener, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientErrorsInJson } from '../http/client-errors.js';
import { keepAliveAfterStalls } from './keep-alive-after-stalls.js';

/** Clients that send headers or a body too slowly are cut off (408), checked at least once a second. */
export function listen(
  handler: RequestListener,
  host: string,
  port: number,
  timeouts: { requestTimeout: number; headersTimeout: number; lateClientGraceMs?: number },
): Promise<Server> {
  const { lateClientGraceMs, ...serverTimeouts } = timeouts;
  return new Promise((resolve, reject) => {
    const server = createServer(
      { ...serverTimeouts, connectionsCheckingInterval: Math.min(1_000, timeouts.headersTimeout) },
      handler,
    );
    answerClientErrorsInJson(server);
    keepAliveAfterStalls(server, lateClientGraceMs);
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** The base address (http://host:port) a client on this machine reaches the server at. */
export function baseUrl(server: Server): string {
  const address = server.address() as AddressInfo;
  const host =
    address.family === 'IPv6' ? `[${address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return `http://${host}:${address.port}`;
}

/** Stops accepting, lets requests under way finish, then cuts whatever is left after the timeout. */
export async function closeServer(server: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  await closed;
  clearTimeout(timer);
}
