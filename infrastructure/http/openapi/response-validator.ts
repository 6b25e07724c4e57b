import { openApiDocument } from './document.js';
import { OpenApiSchemas, describeError } from './openapi-ajv.js';

const PREFIXES = ['/api/v2', '/api/v1', '/v2'];
const schemas = new OpenApiSchemas({ useDefaults: false });

interface DocumentedResponse {
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, unknown>;
}

const routes = Object.entries(openApiDocument.paths).map(([template, item]) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  item: item as Record<string, { responses: Record<string, DocumentedResponse> }>,
}));

/**
 * Problems with a response, judged by the document; empty when it conforms.
 * Paths outside the API (health, metrics, files) are not the document's and pass.
 */
export function validateResponse(method: string, actualPath: string, status: number, body: unknown, headers: Record<string, string> = {}): string[] {
  const prefix = PREFIXES.find((candidate) => actualPath === candidate || actualPath.startsWith(`${candidate}/`));
  if (prefix === undefined) return [];
  const path = actualPath.slice(prefix.length) || '/';
  const route = routes.find((candidate) => candidate.pattern.test(path));
  const operation = route?.item[method.toLowerCase()];
  if (route === undefined || operation === undefined) {
    // Unknown routes and methods answer with the generic error body.
    return validateAgainst('/components/schemas/ApiError', body);
  }
  const response = operation.responses[String(status)];
  if (response === undefined) return [`${method} ${route.template} does not document status ${status}`];
  const problems: string[] = [];
  // Header names are case-insensitive in HTTP.
  const present = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    if (header.required === true && !present.has(name.toLowerCase())) problems.push(`missing header ${name}`);
  }
  if (response.content?.['application/json'] !== undefined) {
    const pointer = `/paths/${route.template.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    problems.push(...validateAgainst(pointer, body));
  }
  return problems;
}

function validateAgainst(pointer: string, body: unknown): string[] {
  const validate = schemas.validator(pointer);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${describeError(error)} (${error.schemaPath})`);
}

export function assertMatchesOpenApi(method: string, actualPath: string, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const problems = validateResponse(method, actualPath, status, body, headers);
  if (problems.length > 0) {
    throw new Error(`${method} ${actualPath} -> ${status} does not match the OpenAPI document:\n  ${problems.join('\n  ')}\nbody: ${JSON.stringify(body).slice(0, 1000)}`);
  }
}
