import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CanaryServer {
  /** host:port, on loopback. */
  host: string;
  /** Every request it received (method and target), or, for a bare connection, `connection`. */
  hits: string[];
  close(): Promise<void>;
}

/**
 * A server nothing should ever reach: it records every connection and
 * request, so a test can show that the service's outbound traffic never got
 * there. It listens on a loopback address of the caller's choice.
 */
export async function startCanaryServer(address = '127.0.0.1'): Promise<CanaryServer> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('canary');
  });
  server.on('connection', () => hits.push('connection'));
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `${address}:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
