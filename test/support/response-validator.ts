import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import { OPENAPI_DOCUMENT as openApiDocument } from '../../infrastructure/features/features.js';
import { OpenApiSchemas, jsonPointer } from '../../infrastructure/http/openapi/openapi-ajv.js';
import { describeValidationErrors } from '../../infrastructure/http/openapi/validation-messages.js';

/** Response headers as fetch returns them, or as a plain object (any letter case). */
export type ResponseHeaders = Headers | Readonly<Record<string, string | number | readonly string[] | undefined>>;

export interface MatchedOperation {
  method: string;
  /** The document's path template, e.g. `/download/{jobId}`. */
  template: string;
  operationId: string;
}

interface DocumentedResponse {
  headers?: Record<string, { required?: boolean; schema?: { type?: unknown } }>;
  content?: Record<string, unknown>;
}

interface DocumentedOperation {
  operationId: string;
  /** An operation served at a base of its own (the admin API's), rather than under the API prefixes. */
  servers?: Array<{ url: string }>;
  responses: Record<string, DocumentedResponse>;
}

interface CompiledResponse {
  key: string;
  headers: Array<{ name: string; required: boolean; type: unknown; validate: ValidateFunction }>;
  mediaTypes: string[];
  body?: ValidateFunction;
}

interface Route {
  template: string;
  pattern: RegExp;
  operations: Map<string, RouteOperation>;
}

interface RouteOperation {
  operationId: string;
  /** The base path it is served under; undefined for the API prefixes'. */
  base: string | undefined;
  responses: Map<string, CompiledResponse>;
}

// Tests want every problem of a response at once.
const schemas = new OpenApiSchemas(openApiDocument, { useDefaults: false, allErrors: true });

/** The base paths the document's servers name; a path under one of them belongs to the API. */
const API_PREFIXES = openApiDocument.servers.map((server) => server.url as string).filter((url) => url.startsWith('/'));
/** And the bases operations name for themselves (the admin API's). */
const OWN_BASES = Object.values(openApiDocument.paths).flatMap((pathItem) =>
  Object.values(pathItem as Record<string, DocumentedOperation>).flatMap((operation) =>
    (operation.servers ?? []).map((server) => server.url),
  ),
);
const PREFIXES = [...new Set([...API_PREFIXES, ...OWN_BASES])];

const routes: Route[] = Object.entries(openApiDocument.paths).map(([template, pathItem]) => {
  const operations = new Map<string, RouteOperation>();
  for (const [method, operation] of Object.entries(pathItem as Record<string, DocumentedOperation>)) {
    const responses = new Map<string, CompiledResponse>();
    for (const [key, response] of Object.entries(operation.responses)) {
      const at = (...rest: string[]) => jsonPointer('paths', template, method, 'responses', key, ...rest);
      responses.set(key, {
        key,
        headers: Object.entries(response.headers ?? {}).map(([name, header]) => ({
          name,
          required: header.required === true,
          type: header.schema?.type,
          validate: schemas.validator(at('headers', name, 'schema')),
        })),
        mediaTypes: Object.keys(response.content ?? {}),
        body:
          response.content?.['application/json'] === undefined
            ? undefined
            : schemas.validator(at('content', 'application/json', 'schema')),
      });
    }
    operations.set(method.toUpperCase(), {
      operationId: operation.operationId,
      base: operation.servers?.[0]?.url,
      responses,
    });
  }
  const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
  return { template, pattern, operations };
});

/** Splits an actual or template path into the API prefix it starts with (if any) and the path the document knows. */
function splitPath(path: string): { prefix: string | undefined; relative: string } {
  const pathOnly = path.replace(/[?#].*$/, '');
  const prefix = PREFIXES.find((candidate) => pathOnly === candidate || pathOnly.startsWith(`${candidate}/`));
  return { prefix, relative: prefix === undefined ? pathOnly : pathOnly.slice(prefix.length) || '/' };
}

/** The operation, if it is served under `prefix` (a template alone, with no prefix, matches any). */
function servedUnder(operation: RouteOperation | undefined, prefix: string | undefined): RouteOperation | undefined {
  if (operation === undefined || prefix === undefined) return operation;
  return (operation.base === undefined ? API_PREFIXES.includes(prefix) : operation.base === prefix)
    ? operation
    : undefined;
}

function findRoute(relative: string): Route | undefined {
  return routes.find((route) => route.template === relative) ?? routes.find((route) => route.pattern.test(relative));
}

/**
 * The documented operation a request reached. `path` may be an actual path
 * (`/api/v1/download/abc?x=1`) or a template (`/download/{jobId}`), with or
 * without any of the API prefixes.
 */
export function matchOperation(method: string, path: string): MatchedOperation | undefined {
  const { prefix, relative } = splitPath(path);
  const route = findRoute(relative);
  const operation = servedUnder(route?.operations.get(method.toUpperCase()), prefix);
  return route === undefined || operation === undefined
    ? undefined
    : { method: method.toUpperCase(), template: route.template, operationId: operation.operationId };
}

/**
 * Everything wrong with a response by the document; empty when it conforms.
 * The response is picked by exact status, then by its class (`4XX`), then
 * `default`. Paths outside the API prefixes that the document does not know
 * (health checks, metrics, signed file links) are not its business and pass;
 * unknown routes under a prefix must answer an error status with an ApiError body.
 */
export function validateResponse(
  method: string,
  path: string,
  status: number,
  body: unknown,
  headers: ResponseHeaders = {},
): string[] {
  const { prefix, relative } = splitPath(path);
  const route = findRoute(relative);
  const operation = servedUnder(route?.operations.get(method.toUpperCase()), prefix);
  if (route === undefined || operation === undefined) {
    if (prefix === undefined) return [];
    if (status < 400)
      return [`${method.toUpperCase()} ${relative} is not in the OpenAPI document, yet answered ${status}`];
    return check(schemas.validator('/components/schemas/ApiError'), body, 'response body');
  }
  const response =
    operation.responses.get(String(status)) ??
    operation.responses.get(`${String(status)[0]}XX`) ??
    operation.responses.get('default');
  if (response === undefined) return [`${method.toUpperCase()} ${route.template} does not document status ${status}`];

  const received = normaliseHeaders(headers);
  const problems: string[] = [];
  for (const header of response.headers) {
    const value = received.get(header.name.toLowerCase());
    if (value === undefined) {
      if (header.required) problems.push(`missing header ${header.name}`);
      continue;
    }
    problems.push(...check(header.validate, headerValue(value, header.type), `header ${header.name}`));
  }
  const contentType = received.get('content-type')?.split(';')[0].trim().toLowerCase();
  if (
    contentType !== undefined &&
    contentType !== '' &&
    response.mediaTypes.length > 0 &&
    !response.mediaTypes.includes(contentType)
  ) {
    problems.push(`content type ${contentType} is not documented (expected ${response.mediaTypes.join(' or ')})`);
  }
  if (response.body !== undefined) problems.push(...check(response.body, body, 'response body'));
  return problems;
}

/** Throws when validateResponse finds problems; the message lists them with the body, for a failing test to show. */
export function assertMatchesOpenApi(
  method: string,
  path: string,
  status: number,
  body: unknown,
  headers?: ResponseHeaders,
): void {
  const problems = validateResponse(method, path, status, body, headers);
  if (problems.length > 0) throw new OpenApiMismatchError(method, path, status, body, problems);
}

export class OpenApiMismatchError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: unknown,
    readonly problems: readonly string[],
  ) {
    const shown = body === undefined ? 'undefined' : JSON.stringify(body);
    super(
      `${method.toUpperCase()} ${path} -> ${status} does not match the OpenAPI document:\n` +
        problems.map((problem) => `  - ${problem}\n`).join('') +
        `  body: ${shown.length > 2000 ? `${shown.slice(0, 2000)}…` : shown}`,
    );
    this.name = 'OpenApiMismatchError';
  }
}

function check(validate: ValidateFunction, value: unknown, root: string): string[] {
  if (validate(value)) return [];
  return describeValidationErrors(validate.errors ?? [], {
    root,
    tagValues: (error: ErrorObject) => schemas.tagValues(error),
  });
}

function normaliseHeaders(headers: ResponseHeaders): Map<string, string> {
  const entries: Array<[string, unknown]> =
    headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  const normalised = new Map<string, string>();
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    normalised.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
  }
  return normalised;
}

/** Header values arrive as text; a header documented as a number or boolean is read as one, so its schema can judge it. */
function headerValue(text: string, type: unknown): unknown {
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
