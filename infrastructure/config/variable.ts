import { ConfigError } from './config-error.js';
import type { EnvReader } from './env-reader.js';
import { InvalidValue } from './invalid-value.js';
import { type Parser, commaList, oneOf, wholeNumber } from './parsers.js';
import type { Variable } from './setting.js';

export interface VariableDeclaration<T> {
  name: string;
  doc: string;
  shownDefault: string;
  /** The parser's type is the variable's: a default of `{}` or `[]` does not widen it. */
  fallback: (env: EnvReader) => NoInfer<T>;
  parse: Parser<T>;
}

/** A variable from its declaration: unset or blank, its fallback; set, its parsed value or a ConfigError naming it. */
export function variable<T>(declaration: VariableDeclaration<T>): Variable<T> {
  const { name, parse, fallback } = declaration;
  const declared: Variable<T> = {
    ...declaration,
    get variables() {
      return [declared];
    },
    read(env) {
      const raw = env.optional(name);
      if (raw === undefined) return fallback(env);
      try {
        return parse(raw);
      } catch (error) {
        if (error instanceof InvalidValue) throw new ConfigError(name, error.message);
        throw error;
      }
    },
  };
  return declared;
}

export const code = (value: string | number): string => `\`${value}\``;

const always =
  <T>(value: T) =>
  () =>
    value;

export function integer(
  name: string,
  fallback: number,
  [min, max]: readonly [number, number],
  doc: string,
  shownDefault = code(fallback),
): Variable<number> {
  return variable({ name, doc, shownDefault, fallback: always(fallback), parse: wholeNumber(min, max) });
}

/** A string whose default may depend on other variables (then the README shows `shownDefault`). */
export function text(
  name: string,
  fallback: string | ((env: EnvReader) => string),
  doc: string,
  shownDefault?: string,
): Variable<string> {
  return variable({
    name,
    doc,
    shownDefault: shownDefault ?? (typeof fallback === 'string' ? code(fallback) : 'derived'),
    fallback: typeof fallback === 'string' ? always(fallback) : fallback,
    parse: (raw) => raw,
  });
}

export function optional(name: string, doc: string, shownDefault = 'unset'): Variable<string | undefined> {
  return variable<string | undefined>({ name, doc, shownDefault, fallback: always(undefined), parse: (raw) => raw });
}

/** A string the settings it belongs to cannot do without: unset, it stops start-up saying why. */
export function required(name: string, whenUnset: string, doc: string): Variable<string> {
  const refuse = () => {
    throw new ConfigError(name, whenUnset);
  };
  return variable({ name, doc, shownDefault: 'unset', fallback: refuse, parse: (raw) => raw });
}

/** Comma-separated; `checkItem` throws InvalidValue for an item it refuses. */
export function list(
  name: string,
  fallback: readonly string[],
  doc: string,
  checkItem: (item: string) => void = () => {},
): Variable<string[]> {
  return variable({
    name,
    doc,
    shownDefault: fallback.length === 0 ? 'empty' : code(fallback.join(',')),
    fallback: () => [...fallback],
    parse: (raw) => {
      const items = commaList(raw);
      for (const item of items) checkItem(item);
      return items;
    },
  });
}

export function choice<const T extends string>(
  name: string,
  allowed: readonly T[],
  fallback: T,
  doc: string,
  shownDefault = code(fallback),
): Variable<T> {
  return variable({ name, doc, shownDefault, fallback: always(fallback), parse: oneOf(allowed) });
}
