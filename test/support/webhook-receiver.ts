import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The raw body bytes, as a receiver must verify them. */
  rawBody: Buffer;
  /** Unix ms at arrival. */
  receivedAt: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface WebhookReceiver {
  port: number;
  /** http://127.0.0.1:<port><path> */
  url(path?: string): string;
  received: ReceivedWebhook[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  stop(): Promise<void>;
}

/**
 * A real HTTP receiver on loopback that records every request and answers
 * as scripted: `answer(n)` for the n-th request (1-based).
 */
export async function startWebhookReceiver(
  answer: (n: number) => Answer = () => ({ status: 200 }),
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, rawBody: Buffer.concat(chunks), receivedAt: Date.now() });
      for (const wake of waiters.splice(0)) wake();
      const { status, headers = {}, delayMs = 0 } = answer(received.length);
      const reply = () => {
        if (response.destroyed) return;
        response.writeHead(status, headers);
        response.end();
      };
      if (delayMs > 0) setTimeout(reply, delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received.slice(0, count);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
