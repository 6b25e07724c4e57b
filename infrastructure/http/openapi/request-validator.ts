import type { ValidateFunction } from 'ajv/dist/2020';
import type { OpenApiDocument } from './document.js';
import { OpenApiSchemas, jsonPointer } from './openapi-ajv.js';
import { describeValidationErrors } from './validation-messages.js';

export type RequestValidationResult<T = Record<string, unknown>> =
  | { ok: true; value: T }
  | { ok: false; message: string };

interface DocumentedOperation {
  operationId?: string;
  parameters?: ReadonlyArray<{
    name: string;
    in: string;
    required?: boolean;
    schema?: { type?: unknown; description?: string };
  }>;
  requestBody?: { required?: boolean; content?: Record<string, unknown> };
}

export interface OperationValidators {
  body?: ValidateFunction;
  /** The document says `required: false`: a request without a body is taken as `{}`. */
  bodyOptional?: boolean;
  pathParameters: Array<{ name: string; validate: ValidateFunction }>;
  /** `expected` (the schema's description) completes the 400's sentence "<name> header must be …". */
  headerParameters: Array<{ name: string; required: boolean; expected: string; validate: ValidateFunction }>;
  queryParameters: Array<{ name: string; integer: boolean; validate: ValidateFunction }>;
}

/**
 * The validators of every operation of a document, compiled at once, so a schema ajv cannot compile stops start-up
 * rather than a request.
 */
export class RequestValidators {
  // Request validation stops at the first problem: the client gets one clear message, and a large bad body costs little.
  private readonly schemas: OpenApiSchemas;
  private readonly operations: Map<string, OperationValidators>;

  constructor(document: OpenApiDocument) {
    this.schemas = new OpenApiSchemas(document, { useDefaults: true, allErrors: false });
    this.operations = compileOperations(document, this.schemas);
  }

  /** Of an operation the document has; naming another is a programming error, not the client's. */
  of(operationId: string): OperationValidators {
    const validators = this.operations.get(operationId);
    if (validators === undefined) throw new Error(`The OpenAPI document has no operation ${operationId}`);
    return validators;
  }

  firstMessage(validate: ValidateFunction, root: string): string {
    const [message] = describeValidationErrors(validate.errors ?? [], {
      root,
      tagValues: (error) => this.schemas.tagValues(error),
    });
    return message ?? `${root} is invalid`;
  }
}

function compileOperations(document: OpenApiDocument, schemas: OpenApiSchemas): Map<string, OperationValidators> {
  const operations = new Map<string, OperationValidators>();
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(pathItem as Record<string, DocumentedOperation>)) {
      if (operation.operationId === undefined) continue;
      const validators: OperationValidators = { pathParameters: [], headerParameters: [], queryParameters: [] };
      if (operation.requestBody?.content?.['application/json'] !== undefined) {
        validators.body = schemas.validator(
          jsonPointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema'),
        );
        validators.bodyOptional = operation.requestBody.required === false;
      }
      (operation.parameters ?? []).forEach((parameter, index) => {
        const validate = () =>
          schemas.validator(jsonPointer('paths', path, method, 'parameters', String(index), 'schema'));
        if (parameter.in === 'path') validators.pathParameters.push({ name: parameter.name, validate: validate() });
        if (parameter.in === 'header')
          validators.headerParameters.push({
            name: parameter.name,
            required: parameter.required === true,
            expected: headerExpectation(parameter),
            validate: validate(),
          });
        if (parameter.in === 'query')
          validators.queryParameters.push({
            name: parameter.name,
            integer: parameter.schema?.type === 'integer',
            validate: validate(),
          });
      });
      operations.set(operation.operationId, validators);
    }
  }
  return operations;
}

/** What a header must be, in words; a documented header without them would answer a 400 that says nothing. */
function headerExpectation(parameter: { name: string; schema?: { description?: string } }): string {
  const expected = parameter.schema?.description;
  if (expected === undefined)
    throw new Error(`The OpenAPI document does not say what header ${parameter.name} must be`);
  return expected;
}

/**
 * Checks a parsed JSON request body against the operation's schema. On
 * success `value` is a copy with the documented defaults filled in (e.g.
 * `format: "audio"`); the body given is left as it was. On failure `message`
 * names the field and the rule, e.g. `startTime must be an integer >= 0`.
 */
export function validateRequestBody(
  validators: RequestValidators,
  operationId: string,
  body: unknown,
): RequestValidationResult {
  const { body: validate, bodyOptional } = validators.of(operationId);
  if (validate === undefined) throw new Error(`Operation ${operationId} takes no JSON request body`);
  const value = body === undefined && bodyOptional === true ? {} : structuredClone(body);
  if (validate(value)) return { ok: true, value: value as Record<string, unknown> };
  return { ok: false, message: validators.firstMessage(validate, 'request body') };
}

/**
 * Checks the operation's path parameters (as the router decoded them), e.g.
 * `{ jobId }` for getDownload. `value` holds only the documented parameters.
 */
export function validatePathParameters(
  validators: RequestValidators,
  operationId: string,
  params: Readonly<Record<string, string | undefined>>,
): RequestValidationResult<Record<string, string>> {
  const value: Record<string, string> = {};
  for (const { name, validate } of validators.of(operationId).pathParameters) {
    const given = params[name];
    if (given === undefined || given === '') return { ok: false, message: `${name} is required` };
    if (!validate(given)) return { ok: false, message: validators.firstMessage(validate, name) };
    value[name] = given;
  }
  return { ok: true, value };
}

/**
 * Checks the operation's documented request headers (Node's lower-cased
 * names; a repeated header counts as invalid). `value` holds those present,
 * under their documented names.
 */
export function validateHeaderParameters(
  validators: RequestValidators,
  operationId: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): RequestValidationResult<Record<string, string>> {
  const value: Record<string, string> = {};
  for (const { name, required, expected, validate } of validators.of(operationId).headerParameters) {
    const given = headers[name.toLowerCase()];
    if (given === undefined) {
      if (required) return { ok: false, message: `${name} header is required` };
      continue;
    }
    if (typeof given !== 'string' || !validate(given))
      return { ok: false, message: `${name} header must be ${expected}` };
    value[name] = given;
  }
  return { ok: true, value };
}

/**
 * Checks the operation's documented query parameters. Query strings carry
 * text: an integer parameter must be written as decimal digits, and a
 * parameter given twice is refused rather than guessed at. `value` holds
 * those present (integers as numbers); undocumented ones are ignored.
 */
export function validateQueryParameters(
  validators: RequestValidators,
  operationId: string,
  query: Readonly<Record<string, string | string[] | undefined>>,
): RequestValidationResult<Record<string, string | number>> {
  const value: Record<string, string | number> = {};
  for (const { name, integer, validate } of validators.of(operationId).queryParameters) {
    const given = query[name];
    if (given === undefined) continue;
    if (typeof given !== 'string') return { ok: false, message: `${name} must be given once` };
    const candidate = integer && /^-?\d{1,15}$/.test(given) ? Number(given) : given;
    if (!validate(candidate)) return { ok: false, message: validators.firstMessage(validate, name) };
    value[name] = candidate;
  }
  return { ok: true, value };
}
