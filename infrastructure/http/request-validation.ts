import type {
  HeaderParameters,
  OperationId,
  OperationWithBody,
  PathParameters,
  QueryParameters,
  RequestBody,
} from './openapi/operations.js';
import {
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
  /** The JSON body, with the documented defaults filled in. */
  body<Id extends OperationWithBody>(operationId: Id, body: unknown): RequestBody<Id> {
    const result = validateRequestBody(operationId, body);
    if (!result.ok) throw new HttpError(400, result.message);
    return result.value as RequestBody<Id>;
  }

  /** Documented request headers; one that breaks the document's rules is a 400 naming it. */
  headers<Id extends OperationId>(
    operationId: Id,
    headers: Readonly<Record<string, string | string[] | undefined>>,
  ): HeaderParameters<Id> {
    const result = validateHeaderParameters(operationId, headers);
    if (!result.ok) throw new HttpError(400, result.message);
    return result.value as HeaderParameters<Id>;
  }

  /** Documented query parameters; one that breaks the document's rules is a 400 naming it. */
  query<Id extends OperationId>(
    operationId: Id,
    query: Readonly<Record<string, string | string[] | undefined>>,
  ): QueryParameters<Id> {
    const result = validateQueryParameters(operationId, query);
    if (!result.ok) throw new HttpError(400, result.message);
    return result.value as QueryParameters<Id>;
  }

  /** Path parameters that break the document's rules name nothing that exists: a 404, as the spec's poll endpoints list no 400. */
  pathParameters<Id extends OperationId>(
    operationId: Id,
    params: Readonly<Record<string, string | undefined>>,
    notFoundMessage: string,
  ): PathParameters<Id> {
    const result = validatePathParameters(operationId, params);
    if (!result.ok) throw new HttpError(404, notFoundMessage);
    return result.value as PathParameters<Id>;
  }
}
