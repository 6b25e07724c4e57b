import { validatePathParameters, validateRequestBody } from './openapi/request-validator.js';
import { HttpError } from './http-error.js';

/** Request bodies checked against the OpenAPI document (defaults applied); a mismatch is a 400 naming the field. */
export class RequestValidation {
  body<T>(operationId: string, body: unknown): T {
    const result = validateRequestBody(operationId, body);
    if (!result.ok) throw new HttpError(400, result.message);
    return result.value as T;
  }

  /** Path parameters that break the document's rules name nothing that exists: a 404, as the spec's poll endpoints list no 400. */
  pathParameters(operationId: string, params: Readonly<Record<string, string | undefined>>, notFoundMessage: string): Record<string, string> {
    const result = validatePathParameters(operationId, params);
    if (!result.ok) throw new HttpError(404, notFoundMessage);
    return result.value;
  }
}
