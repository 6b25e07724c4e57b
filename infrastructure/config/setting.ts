import type { EnvReader } from './env-reader.js';

/** A value of the configuration and the environment variables it is read from. */
export interface Setting<T> {
  /** In the README's order, each once. */
  readonly variables: readonly Variable<unknown>[];
  read(env: EnvReader): T;
}

/**
 * One environment variable, declared once: its name, its one-line doc, its default (as the README shows it, and as
 * read when the variable is unset or blank), and the parser of a set value. Its type is the parser's.
 */
export interface Variable<T> extends Setting<T> {
  readonly name: string;
  readonly doc: string;
  readonly shownDefault: string;
  /** May read other variables, as a default built from DATA_DIR does. */
  fallback(env: EnvReader): T;
  /** Throws InvalidValue saying what is wrong. */
  parse(raw: string): T;
}

/** The type a setting reads, inferred from its declaration. */
export type SettingValue<S> = S extends Setting<infer T> ? T : never;

/** Settings by field name: a section, or an object inside one. */
export type Declarations = { readonly [field: string]: Setting<unknown> };

/** The object a record of declarations reads into. */
export type DeclaredSettings<D extends Declarations> = { -readonly [Field in keyof D]: SettingValue<D[Field]> };
