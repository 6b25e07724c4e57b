import {
  type SchemaOptions,
  type Static,
  type TObject,
  type TOptional,
  type TSchema,
  type TUnsafe,
  Type,
} from '@sinclair/typebox';

/**
 * Helpers the document's parts are written with. Schemas are TypeBox
 * objects, so each one's TypeScript type follows from it (`Static`); the
 * helpers here write the JSON Schema forms TypeBox spells differently
 * (`$ref` to a component, `type: [x, 'null']`, a bare `enum`).
 */

declare const refTarget: unique symbol;

/** A `$ref` to a component schema that keeps, for the compiler only, the schema it names. */
export interface TRefTo<S extends TSchema> extends TUnsafe<Static<S>> {
  readonly [refTarget]: S;
}

/** `{ $ref: '#/components/schemas/<name>' }`, typed as `target`, the schema registered under that name. */
export function ref<S extends TSchema>(name: string, target: S, options: SchemaOptions = {}): TRefTo<S> {
  void target;
  return Type.Unsafe<Static<S>>({ ...options, $ref: `#/components/schemas/${name}` }) as TRefTo<S>;
}

/** The schema a reference names, or the schema itself. */
export type Dereferenced<S extends TSchema> = S extends TRefTo<infer Target> ? Target : S;

type NullableTypes = { string: string; number: number; integer: number };

/** `{ type: [<type>, 'null'] }`, the form the contract uses for values that may be null. */
export function nullable<K extends keyof NullableTypes>(
  type: K,
  options: SchemaOptions = {},
): TUnsafe<NullableTypes[K] | null> {
  return Type.Unsafe<NullableTypes[K] | null>({ type: [type, 'null'], ...options });
}

/** `{ type: 'string', enum: [...] }`. */
export function stringEnum<const V extends readonly string[]>(
  values: V,
  options: SchemaOptions = {},
): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
}

/** An optional property that validation fills in with `value` when absent: not required of clients, always there for handlers. */
export function defaulted<S extends TSchema>(schema: S, value: Static<S>): TOptional<S & { default: Static<S> }> {
  return Type.Optional({ ...schema, default: value }) as TOptional<S & { default: Static<S> }>;
}

type DefaultedKeys<P> = { [K in keyof P]: P[K] extends { default: unknown } ? K : never }[keyof P];

/** The type of a value that passed validation, with its `defaulted` properties filled in. */
export type Validated<S extends TSchema> =
  Dereferenced<S> extends TObject<infer P>
    ? Static<TObject<P>> & { [K in DefaultedKeys<P>]-?: Static<P[K]> }
    : Static<S>;

/** A JSON media type entry, keeping its schema's type. */
export function jsonContent<S>(schema: S, example?: unknown): { 'application/json': { schema: S; example?: unknown } } {
  return { 'application/json': example === undefined ? { schema } : { schema, example } };
}

export const seconds = (description: string) => Type.Integer({ minimum: 0, description });

interface DocumentedParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly description: string;
  readonly schema: TSchema | object;
}

interface DocumentedOperation {
  readonly operationId: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description: string;
  readonly security?: readonly object[];
  readonly parameters?: readonly DocumentedParameter[];
  readonly requestBody?: { readonly required: boolean; readonly content: object };
  readonly responses: Readonly<Record<string, object>>;
}

export type PathItem = Readonly<Partial<Record<'get' | 'post' | 'delete', DocumentedOperation>>>;

/** Paths as written, with their operation ids, parameter names and schemas kept as literal types. */
export function definePaths<const P extends Readonly<Record<string, PathItem>>>(paths: P): P {
  return paths;
}
