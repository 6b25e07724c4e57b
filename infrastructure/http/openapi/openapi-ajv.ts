import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const DOCUMENT_ID = 'openapi.json';

export interface OpenApiAjvOptions {
  /** Fill in `default` values while validating (request bodies). */
  useDefaults: boolean;
  /** Report every problem rather than the first (responses, where tests want the whole list). */
  allErrors: boolean;
}

/** A JSON pointer (`/paths/~1download/post`) from raw segments, escaping `~` and `/`. */
export function jsonPointer(...segments: string[]): string {
  return segments.map((segment) => `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * The whole OpenAPI document in one ajv instance, so `#/components/...`
 * references resolve where they are written and each schema compiles once.
 */
export class OpenApiSchemas {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  /** Tag values of each discriminator as given to ajv, which only knows them through its `oneOf`. */
  private readonly discriminatorTags = new WeakMap<object, readonly string[]>();

  constructor(document: object, options: OpenApiAjvOptions) {
    this.ajv = new Ajv2020({
      // The document carries OpenAPI keywords (paths, servers, ...) that are not JSON Schema; the document's own tests check its keywords instead.
      strict: false,
      coerceTypes: false,
      useDefaults: options.useDefaults,
      allErrors: options.allErrors,
      discriminator: true,
      // Messages are phrased from the failing schema, which ajv only hands over in verbose mode.
      verbose: true,
    });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...(this.forAjv(document) as object), $id: DOCUMENT_ID });
  }

  /** The compiled validator of the schema at `pointer`, e.g. `/components/schemas/ApiError`. */
  validator(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  /** The values a failing discriminator would have accepted, for the error message. */
  tagValues(error: ErrorObject): readonly string[] {
    return typeof error.schema === 'object' && error.schema !== null
      ? (this.discriminatorTags.get(error.schema) ?? [])
      : [];
  }

  /**
   * A copy ajv accepts: it selects the `oneOf` branch by the discriminator's
   * property itself and refuses OpenAPI's `mapping`, which the document keeps
   * for code generators.
   */
  private forAjv(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((item) => this.forAjv(item));
    if (typeof node !== 'object' || node === null) return node;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'discriminator' && typeof value === 'object' && value !== null && 'mapping' in value) {
        const { mapping, ...rest } = value as { mapping: Record<string, string> };
        this.discriminatorTags.set(rest, Object.keys(mapping));
        copy[key] = rest;
      } else {
        copy[key] = this.forAjv(value);
      }
    }
    return copy;
  }
}
