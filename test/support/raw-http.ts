import { request } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the body is JSON, else the text. */
  body: any;
  text: string;
}

/**
 * One request exactly as given, as a hostile client sends it: any method,
 * any headers (Content-Encoding, odd Authorization), any body bytes.
 */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const framed =
      body === undefined || Object.keys(headers).some((name) => /^(content-length|transfer-encoding)$/i.test(name))
        ? headers
        : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
    let answered: RawResponse | null = null;
    const req = request(`${base}${path}`, { method, headers: framed }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        if (String(res.headers['content-type'] ?? '').includes('application/json')) {
          try {
            parsed = JSON.parse(text);
          } catch {
            // Left as text: the assertion shows it.
          }
        }
        answered = { status: res.statusCode ?? 0, headers: res.headers, body: parsed, text };
        resolve(answered);
      });
      // A server that refuses before reading the whole body may reset the connection once it has answered.
      res.on('error', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: undefined,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      answered === null
        ? reject(new Error(`${method} ${path.slice(0, 120)}: ${error.code ?? ''} ${error.message}`, { cause: error }))
        : resolve(answered),
    );
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A response its client stopped reading; see `stopReading`. */
export interface UnreadResponse {
  /** What has arrived (latin1): the rest stays in the kernel's buffers while the client does not read. */
  readonly received: string;
  /** Whether the connection has closed; seen only once the client reads again. */
  readonly closed: boolean;
  /** Reads again, to the end of whatever the server sends. */
  resume(): void;
  destroy(): void;
}

/**
 * A GET over a plain socket whose client reads until `until` has arrived (at
 * once when not given) and then stops reading, as a stuck or hostile client
 * does: the server's writes fill the kernel's buffers and then wait.
 */
export function stopReading(
  base: string,
  path: string,
  headers: Record<string, string>,
  until?: string,
): Promise<UnreadResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    let received = '';
    let closed = false;
    let stopped = until === undefined;
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const response: UnreadResponse = {
      get received() {
        return received;
      },
      get closed() {
        return closed;
      },
      resume: () => socket.resume(),
      destroy: () => socket.destroy(),
    };
    socket.once('error', reject);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
    });
    socket.once('connect', () => {
      const lines = Object.entries({ Host: url.host, ...headers }).map(([name, value]) => `${name}: ${value}`);
      socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
      if (until === undefined) {
        socket.off('error', reject);
        resolve(response);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (stopped || until === undefined) return;
      if (received.includes(until)) {
        stopped = true;
        socket.pause();
        socket.off('error', reject);
        resolve(response);
      }
    });
    if (until === undefined) socket.pause();
  });
}
