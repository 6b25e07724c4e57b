import { assertMatchesOpenApi } from './response-validator.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  key?: string;
  json?: unknown;
  /** Sent as is, for malformed or oversized bodies. */
  raw?: string;
  headers?: Record<string, string>;
}

/** fetch's own message is only "fetch failed": the cause says what happened to the connection. */
function describeFailure(error: Error): string {
  const cause = error.cause as (Error & { code?: string }) | undefined;
  return cause === undefined ? error.message : `${error.message}: ${cause.code ?? cause.name} ${cause.message}`;
}

/**
 * fetch against a running test service; every JSON response from an API path
 * is checked against the OpenAPI document before the test sees it.
 */
export function apiClient(baseUrl: string) {
  return async function call<T = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.raw !== undefined) {
      body = options.raw;
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' }).catch(
      (error: Error) => {
        throw new Error(`${method} ${path.slice(0, 120)}: ${describeFailure(error)}`, { cause: error });
      },
    );
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    const parsed = contentType.includes('application/json') && text !== '' ? JSON.parse(text) : text;
    const url = new URL(`${baseUrl}${path}`);
    if (contentType.includes('application/json')) {
      assertMatchesOpenApi(
        method,
        url.pathname,
        response.status,
        parsed,
        Object.fromEntries(response.headers.entries()),
      );
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  };
}
