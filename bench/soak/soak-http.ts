import { type ServerErrorAnswer, routeOf } from './response-invariants.js';

/** What a request got: an answer, or the reason there was none (connection refused, reset, or no answer within the timeout). */
export type Outcome = { status: number; body: any; ms: number } | { status: null; error: string; ms: number };

/** Every request's time to answer, and the ones that got none in time: a request is expected to be answered within this. */
export const ANSWER_WITHIN_MS = 30_000;

export class SoakHttp {
  readonly latencies: number[] = [];
  readonly unanswered: Array<{ at: number; what: string; error: string }> = [];
  /** Every answer with a 5xx status, for the invariant that only a passing outage may answer so. */
  readonly serverErrors: ServerErrorAnswer[] = [];
  private turn = 0;

  constructor(private readonly apis: string[]) {}

  /** One request to the next API process in turn. */
  async send(
    method: string,
    path: string,
    options: { key: string; json?: unknown; headers?: Record<string, string> },
  ): Promise<Outcome> {
    const api = this.apis[this.turn++ % this.apis.length];
    const started = Date.now();
    try {
      const response = await fetch(`${api}/api/v2${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${options.key}`,
          ...(options.json === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...options.headers,
        },
        body: options.json === undefined ? undefined : JSON.stringify(options.json),
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
      });
      const text = await response.text();
      const ms = Date.now() - started;
      this.latencies.push(ms);
      let body: any = null;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        body = { raw: text.slice(0, 200) };
      }
      if (response.status >= 500) {
        const error = typeof body?.error === 'string' ? body.error : text.slice(0, 200);
        this.serverErrors.push({
          at: started,
          answeredAt: started + ms,
          route: routeOf(method, path),
          status: response.status,
          error,
        });
      }
      return { status: response.status, body, ms };
    } catch (error) {
      const ms = Date.now() - started;
      const reason =
        error instanceof Error
          ? `${error.name}: ${(error.cause as Error | undefined)?.message ?? error.message}`
          : String(error);
      // A refused connection is an API process restarting; no answer within the bound is a hang.
      if (ms >= ANSWER_WITHIN_MS - 50) this.unanswered.push({ at: started, what: `${method} ${path}`, error: reason });
      return { status: null, error: reason, ms };
    }
  }
}
