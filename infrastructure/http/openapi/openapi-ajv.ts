import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from './document.js';

const DOCUMENT_ID = 'openapi.json';

/**
 * One ajv instance holding the whole document, so schemas compile with their
 * `#/components/...` references resolved, once each.
 */
function createAjv(options: { useDefaults: boolean }): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes: false, useDefaults: options.useDefaults });
  addFormats(ajv);
  ajv.addSchema({ ...structuredClone(openApiDocument), $id: DOCUMENT_ID } as object);
  return ajv;
}

export class OpenApiSchemas {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(options: { useDefaults: boolean }) {
    this.ajv = createAjv(options);
  }

  /** `pointer` is a JSON pointer into the document, e.g. `/components/schemas/ApiError`. */
  validator(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }
}

/** One ajv error in words a client understands, naming the field. */
export function describeError(error: ErrorObject): string {
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const subject = field === '' ? 'request body' : field;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${field === '' ? '' : `${field}.`}${String(params.missingProperty)} is required`;
    case 'additionalProperties':
      return `unknown field: ${field === '' ? '' : `${field}.`}${String(params.additionalProperty)}`;
    case 'type': {
      const type = String(params.type);
      return `${subject} must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type === 'object' ? 'JSON object' : type}`;
    }
    case 'enum':
      return `${subject} must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${subject} must be ${JSON.stringify(params.allowedValue)}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${subject} must be ${String(params.comparison)} ${String(params.limit)}`;
    case 'maxLength':
      return `${subject} must be at most ${String(params.limit)} characters`;
    case 'minLength':
      return `${subject} must be at least ${String(params.limit)} characters`;
    case 'pattern':
      return `${subject} must match ${String(params.pattern)}`;
    case 'format':
      return `${subject} must be a valid ${params.format === 'uri' ? 'absolute URI' : String(params.format)}`;
    default:
      return `${subject} ${error.message ?? 'is invalid'}`;
  }
}
