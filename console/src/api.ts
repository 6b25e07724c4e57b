/** Calls to the API with the tab's key; every failure becomes an ApiError carrying the API's own message. */

const API_BASE = '/api/v2';
/** The admin API's base, for an operator token. */
export const ADMIN_BASE = '/admin/v1';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: string,
  ) {
    super(message);
  }
}

export class Api {
  constructor(
    private readonly apiKey: string,
    private readonly base = API_BASE,
  ) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.apiKey}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(this.base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(0, 'The service cannot be reached; check the connection and try again.');
    }
    const parsed = await readJson(response);
    if (!response.ok) {
      const error = parsed as { error?: unknown; details?: unknown } | null;
      const message = typeof error?.error === 'string' ? error.error : `The service answered ${response.status}`;
      throw new ApiError(response.status, message, typeof error?.details === 'string' ? error.details : undefined);
    }
    return parsed as T;
  }

  /** Opens a text/event-stream with the Bearer header, which EventSource cannot send. */
  openStream(path: string, lastEventId: string | null, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.apiKey}`, Accept: 'text/event-stream' };
    if (lastEventId !== null) headers['Last-Event-ID'] = lastEventId;
    return fetch(this.base + path, { headers, signal, cache: 'no-store' });
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
