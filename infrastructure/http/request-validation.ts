import { validateRequestBody } from './openapi/request-validator.js';
import { HttpError } from './http-error.js';

/** Request bodies checked against the OpenAPI document (defaults applied); a mismatch is a 400 naming the field. */
export class RequestValidation {
  body<T>(operationId: string, body: unknown): T {
    const result = validateRequestBody(operationId, body);
    if (!result.ok) throw new HttpError(400, result.message);
    return result.value as T;
  }
}
