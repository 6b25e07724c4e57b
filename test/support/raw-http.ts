import { request } from 'node:http';

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
    req.on('error', (error) => (answered === null ? reject(error) : resolve(answered)));
    if (body !== undefined) req.write(body);
    req.end();
  });
}
