import type { ErrorObject } from 'ajv/dist/2020';

/** The parts of a JSON Schema the messages read; ajv hands over the failing schema as plain JSON. */
interface SchemaFacts {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
  pattern?: string;
  examples?: unknown[];
}

export interface MessageContext {
  /** How to call the whole document being validated, e.g. `request body`. */
  root: string;
  /** The tag values a failing discriminator accepts. */
  tagValues(error: ErrorObject): readonly string[];
}

const FORMAT_WORDS: Record<string, string> = {
  uri: 'an absolute URL',
  'date-time': 'an ISO 8601 date-time with a time zone',
  uuid: 'a UUID',
  email: 'an email address',
};

/**
 * ajv's errors in words a client understands: each names the field
 * (`result.audio[0].type`) and states the whole rule it breaks, so
 * `startTime: -1` and `startTime: "3"` both read `startTime must be an integer >= 0`.
 * Errors that only repeat another (an `if` that failed its `then`, the name
 * check inside `propertyNames`) are dropped.
 */
export function describeValidationErrors(errors: readonly ErrorObject[], context: MessageContext): string[] {
  const messages = errors
    .filter((error) => error.keyword !== 'if' && error.propertyName === undefined)
    .map((error) => describe(error, context));
  return [...new Set(messages)];
}

function describe(error: ErrorObject, context: MessageContext): string {
  const params = error.params as Record<string, unknown>;
  const schema = (
    typeof error.parentSchema === 'object' && error.parentSchema !== null ? error.parentSchema : {}
  ) as SchemaFacts;
  const subject = error.instancePath === '' ? context.root : fieldPath(error.instancePath);
  switch (error.keyword) {
    case 'required':
      return `${fieldPath(error.instancePath, String(params.missingProperty))} is required`;
    case 'additionalProperties':
      return `unknown field: ${fieldPath(error.instancePath, String(params.additionalProperty))}`;
    case 'propertyNames':
      return `unknown field: ${fieldPath(error.instancePath, String(params.propertyName))}`;
    case 'discriminator':
      return `${fieldPath(error.instancePath, String(params.tag))} must be one of: ${context.tagValues(error).join(', ')}`;
    case 'type':
      if (error.instancePath === '' && typesOf(schema).join() === 'object')
        return `${context.root} must be a JSON object`;
      return `${subject} must be ${expectation(schema)}`;
    case 'enum':
    case 'const':
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${subject} must be ${expectation(schema)}`;
    case 'maxLength':
      return `${subject} must be at most ${String(params.limit)} characters`;
    case 'minLength':
      return `${subject} must be at least ${String(params.limit)} characters`;
    case 'pattern': {
      const examples =
        Array.isArray(schema.examples) && schema.examples.length > 0
          ? ` (for example ${schema.examples.join(', ')})`
          : '';
      return `${subject} must match the pattern ${String(params.pattern)}${examples}`;
    }
    case 'format':
      return (
        (params.format === 'uri' ? characterOutsideUrl(subject, error.data) : null) ??
        `${subject} must be ${formatWords(String(params.format))}${typesOf(schema).includes('null') ? ' or null' : ''}`
      );
    case 'false schema':
      return `${subject} is not allowed here`;
    case 'oneOf':
      return `${subject} must match exactly one of the documented shapes`;
    case 'anyOf':
      return `${subject} must match one of the documented shapes`;
    default:
      return `${subject} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * What is wrong with a URL that has a scheme but holds a character no URL may hold unencoded (RFC 3986): `<`, a
 * space, a quote. Null when there is no such character, or no scheme: then it is simply not an absolute URL.
 */
function characterOutsideUrl(subject: string, value: unknown): string | null {
  if (typeof value !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return null;
  const found = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/u.exec(value)?.[0];
  if (found === undefined) return null;
  const code = `U+${(found.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  const shown =
    found === ' ' ? 'a space' : /^[\x21-\x7e]$/.test(found) ? `the character "${found}"` : `the character ${code}`;
  return `${subject} must be an absolute URL, and it contains ${shown}, which a URL may not hold: percent-encode it (${encodeURIComponent(found)})`;
}

/** `/result/audio/0/type` -> `result.audio[0].type`. */
function fieldPath(instancePath: string, child?: string): string {
  const segments =
    instancePath === ''
      ? []
      : instancePath
          .slice(1)
          .split('/')
          .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) segments.push(child);
  let path = '';
  for (const segment of segments)
    path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  return path;
}

function typesOf(schema: SchemaFacts): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** What a value must be to satisfy `schema`, e.g. `an integer from 1 to 1000` or `one of: audio, 720`. */
function expectation(schema: SchemaFacts): string {
  if (Array.isArray(schema.enum))
    return `one of: ${schema.enum.map((value) => (value === null ? 'null' : String(value))).join(', ')}`;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const types = typesOf(schema);
  if (types.length === 0) return bounds(schema) || 'valid';
  return types.map((type) => typeWords(type, schema)).join(' or ');
}

function typeWords(type: string, schema: SchemaFacts): string {
  switch (type) {
    case 'integer':
    case 'number': {
      const range = bounds(schema);
      return `${type === 'integer' ? 'an integer' : 'a number'}${range === '' ? '' : ` ${range}`}`;
    }
    case 'string':
      return schema.format === undefined ? 'a string' : `a string (${formatWords(schema.format)})`;
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    default:
      return `of type ${type}`;
  }
}

function bounds(schema: SchemaFacts): string {
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    return `from ${schema.minimum} to ${schema.maximum}`;
  const parts: string[] = [];
  if (schema.minimum !== undefined) parts.push(`>= ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) parts.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) parts.push(`<= ${schema.maximum}`);
  if (schema.exclusiveMaximum !== undefined) parts.push(`< ${schema.exclusiveMaximum}`);
  return parts.join(' and ');
}

function formatWords(format: string): string {
  return FORMAT_WORDS[format] ?? `a valid ${format}`;
}
