import type { EnvReader } from './env-reader.js';

/** One environment variable: its name, its one-line doc, its default as the README shows it, and how it is read. */
export interface Variable<T> {
  readonly name: string;
  readonly doc: string;
  readonly shownDefault: string;
  read(env: EnvReader): T;
}

/** A part of the configuration: its variables (for the README) and how it reads them into settings. */
export interface ConfigSection<T> {
  readonly title: string;
  readonly variables: readonly Variable<unknown>[];
  load(env: EnvReader): T;
}

export const code = (value: string | number): string => `\`${value}\``;

export function integer(
  name: string,
  fallback: number,
  [min, max]: readonly [number, number],
  doc: string,
  shownDefault = code(fallback),
): Variable<number> {
  return { name, doc, shownDefault, read: (env) => env.integer(name, fallback, min, max) };
}

/** A string whose default may depend on other variables (then the README shows `shownDefault`). */
export function text(
  name: string,
  fallback: string | ((env: EnvReader) => string),
  doc: string,
  shownDefault?: string,
): Variable<string> {
  const value = (env: EnvReader) => (typeof fallback === 'string' ? fallback : fallback(env));
  return {
    name,
    doc,
    shownDefault: shownDefault ?? (typeof fallback === 'string' ? code(fallback) : 'derived'),
    read: (env) => env.optional(name) ?? value(env),
  };
}

export function optional(name: string, doc: string, shownDefault = 'unset'): Variable<string | undefined> {
  return { name, doc, shownDefault, read: (env) => env.optional(name) };
}

/** Comma-separated. */
export function list(
  name: string,
  fallback: readonly string[],
  doc: string,
  shownDefault?: string,
): Variable<string[]> {
  return {
    name,
    doc,
    shownDefault: shownDefault ?? (fallback.length === 0 ? 'empty' : code(fallback.join(','))),
    read: (env) => env.list(name, [...fallback]),
  };
}

export function choice<T extends string>(
  name: string,
  allowed: readonly T[],
  fallback: T,
  doc: string,
  shownDefault = code(fallback),
): Variable<T> {
  return { name, doc, shownDefault, read: (env) => env.oneOf(name, allowed, fallback) };
}

/** A variable read in a way of its own. */
export function custom<T>(name: string, doc: string, shownDefault: string, read: (env: EnvReader) => T): Variable<T> {
  return { name, doc, shownDefault, read };
}
