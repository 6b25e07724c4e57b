import { validateHeaderParameters, validatePathParameters, validateQueryParameters, validateRequestBody } from './openapi/request-validator.js';
import { HttpError } from './http-error.js';

/** Request bodies checked against the OpenAPI document (defaults applied); a mismatch is a 400 naming the field. */
export class RequestValidation {
  body<T>(operationId: string, body: unknown): T {
    const result = validateRequestBody(operationId, body);
    if (!result.ok) throw new HttpError(400, result.message);
    return result.value as T;
  }

  /** Documented request headers; one that breaks the document's rules is a 400 naming it. */
  headers(operationId: string, headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
    const result = validateHeaderParameters(operationId, headers);
    if (!result.ok) throw new HttpError(400, result.message);
    return result.value;
  }

  /** Documented query parameters; one that breaks the document's rules is a 400 naming it. */
  query(operationId: string, query: Readonly<Record<string, string | string[] | undefined>>): Record<string, string | number> {
    const result = validateQueryParameters(operationId, query);
    if (!result.ok) throw new HttpError(400, result.message);
    return result.value;
  }

  /** Path parameters that break the document's rules name nothing that exists: a 404, as the spec's poll endpoints list no 400. */
  pathParameters(operationId: string, params: Readonly<Record<string, string | undefined>>, notFoundMessage: string): Record<string, string> {
    const result = validatePathParameters(operationId, params);
    if (!result.ok) throw new HttpError(404, notFoundMessage);
    return result.value;
  }
}
