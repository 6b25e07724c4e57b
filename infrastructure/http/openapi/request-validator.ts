import { openApiDocument } from './document.js';
import { OpenApiSchemas, describeError } from './openapi-ajv.js';

type Operation = { operationId?: string; requestBody?: { content: { 'application/json': { schema: { $ref?: string } } } } };

const schemas = new OpenApiSchemas({ useDefaults: true });

/** operationId -> JSON pointer of its request body schema, read from the document once. */
const requestBodies = new Map<string, string>();
for (const pathItem of Object.values(openApiDocument.paths) as Array<Record<string, Operation>>) {
  for (const operation of Object.values(pathItem)) {
    const reference = operation.requestBody?.content['application/json'].schema.$ref;
    if (operation.operationId !== undefined && reference !== undefined) requestBodies.set(operation.operationId, reference.replace(/^#/, ''));
  }
}

export type RequestValidationResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Validates (and fills defaults into a copy of) a request body by the operation's schema. */
export function validateRequestBody(operationId: string, body: unknown): RequestValidationResult {
  const pointer = requestBodies.get(operationId);
  if (pointer === undefined) throw new Error(`No request body schema for operation ${operationId}`);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, message: 'request body must be a JSON object' };
  const value = structuredClone(body);
  const validate = schemas.validator(pointer);
  if (validate(value)) return { ok: true, value };
  return { ok: false, message: describeError((validate.errors ?? [])[0]) };
}
