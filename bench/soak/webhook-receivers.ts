import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const RECEIVER_KINDS = ['ok', 'error', 'gone', 'hang'] as const;
export type ReceiverKind = (typeof RECEIVER_KINDS)[number];

export interface ReceivedAttempt {
  attempt: number;
  at: number;
  /** What the receiver answered; null when it never answered (`hang`). */
  answered: number | null;
  /** The body as sent and its `X-Service-Signature`, checked afterwards against the account's key. */
  rawBody: string;
  signature: string | null;
}

const ANSWERS: Record<ReceiverKind, number | null> = { ok: 200, error: 500, gone: 410, hang: null };

/**
 * Webhook receivers on loopback, one per behaviour: 200, 500, 410, and one
 * that never answers. Each records the attempts it saw per job, with the
 * body and signature as received.
 */
export class WebhookReceivers {
  private readonly servers = new Map<ReceiverKind, { server: Server; port: number }>();
  private readonly seen = new Map<string, ReceivedAttempt[]>();

  static async start(): Promise<WebhookReceivers> {
    const receivers = new WebhookReceivers();
    for (const kind of RECEIVER_KINDS) await receivers.listen(kind);
    return receivers;
  }

  url(kind: ReceiverKind): string {
    return `http://127.0.0.1:${this.servers.get(kind)?.port}/hook/${kind}`;
  }

  attemptsFor(jobId: string): ReceivedAttempt[] {
    return this.seen.get(jobId) ?? [];
  }

  async stop(): Promise<void> {
    for (const { server } of this.servers.values()) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  private async listen(kind: ReceiverKind): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const jobId = String(request.headers['x-service-job-id'] ?? '');
        const answered = ANSWERS[kind];
        const attempts = this.seen.get(jobId) ?? [];
        const signature = request.headers['x-service-signature'];
        attempts.push({
          attempt: Number(request.headers['x-service-attempt'] ?? 0),
          at: Date.now(),
          answered,
          rawBody: Buffer.concat(chunks).toString('utf8'),
          signature: typeof signature === 'string' ? signature : null,
        });
        this.seen.set(jobId, attempts);
        if (answered !== null) response.writeHead(answered).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.servers.set(kind, { server, port: (server.address() as AddressInfo).port });
  }
}
