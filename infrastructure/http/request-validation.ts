import type {
  HeaderParameters,
  OperationId,
  OperationWithBody,
  PathParameters,
  QueryParameters,
  RequestBody,
} from './openapi/operations.js';
import type { OpenApiDocument } from './openapi/document.js';
import { documentedRoute, type HttpMethod } from './openapi/operations.js';
import {
  RequestValidators,
  validateHeaderParameters,
  validatePathParameters,
  validateQueryParameters,
  validateRequestBody,
} from './openapi/request-validator.js';
import { HttpError } from './http-error.js';

/**
 * Requests checked against the OpenAPI document, typed by operation id: a
 * value that passed is of the type its schema gives (hence the assertions,
 * the one place they are made). A mismatch is a 400 naming the field.
 */
export class RequestValidation {
  private readonly validators: RequestValidators;

  constructor(private readonly document: OpenApiDocument) {
    this.validators = compiledValidators(document);
  }

  /** The method and path (in the router's `:name` form) the document gives an operation. */
  route(operationId: OperationId): { method: HttpMethod; path: string } {
    return documentedRoute(this.document.paths, operationId);
  }

  /** The JSON body, with the documented defaults filled in. */
  body<Id extends OperationWithBody>(operationId: Id, body: unknown): RequestBody<Id> {
    const result = validateRequestBody(this.validators, operationId, body);
    if (!result.ok) throw new HttpError(400, result.message);
    return result.value as RequestBody<Id>;
  }

  /** Documented request headers; one that breaks the document's rules is a 400 naming it. */
  headers<Id extends OperationId>(
    operationId: Id,
    headers: Readonly<Record<string, string | string[] | undefined>>,
  ): HeaderParameters<Id> {
    const result = validateHeaderParameters(this.validators, operationId, headers);
    if (!result.ok) throw new HttpError(400, result.message);
    return result.value as HeaderParameters<Id>;
  }

  /** Documented query parameters; one that breaks the document's rules is a 400 naming it. */
  query<Id extends OperationId>(
    operationId: Id,
    query: Readonly<Record<string, string | string[] | undefined>>,
  ): QueryParameters<Id> {
    const result = validateQueryParameters(this.validators, operationId, query);
    if (!result.ok) throw new HttpError(400, result.message);
    return result.value as QueryParameters<Id>;
  }

  /** Path parameters that break the document's rules name nothing that exists: a 404, as the spec's poll endpoints list no 400. */
  pathParameters<Id extends OperationId>(
    operationId: Id,
    params: Readonly<Record<string, string | undefined>>,
    notFoundMessage: string,
  ): PathParameters<Id> {
    const result = validatePathParameters(this.validators, operationId, params);
    if (!result.ok) throw new HttpError(404, notFoundMessage);
    return result.value as PathParameters<Id>;
  }
}

// Compiling a document's validators takes a while: each document is compiled once, however many validations use it.
const compiled = new WeakMap<OpenApiDocument, RequestValidators>();
function compiledValidators(document: OpenApiDocument): RequestValidators {
  let validators = compiled.get(document);
  if (validators === undefined) {
    validators = new RequestValidators(document);
    compiled.set(document, validators);
  }
  return validators;
}
