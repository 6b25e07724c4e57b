import type { Declarations, DeclaredSettings, Setting, Variable } from './setting.js';

/** Settings read into one object, field by field in declaration order; its variables are theirs, each once. */
export function group<D extends Declarations>(declarations: D): Setting<DeclaredSettings<D>> {
  const fields = Object.entries(declarations);
  return {
    variables: [...new Set<Variable<unknown>>(fields.flatMap(([, setting]) => setting.variables))],
    read: (env) =>
      Object.fromEntries(fields.map(([field, setting]) => [field, setting.read(env)])) as DeclaredSettings<D>,
  };
}

/** A value worked out from what a setting reads (a unit converted, several variables checked against each other). */
export function derive<T, U>(setting: Setting<T>, compute: (value: T) => U): Setting<U> {
  return { variables: setting.variables, read: (env) => compute(setting.read(env)) };
}

/** A setting read only when a choice selects it (null otherwise), so its variables are not checked in vain. */
export function when<C, T>(choice: Variable<C>, selected: C, setting: Setting<T>): Setting<T | null> {
  return {
    variables: [...new Set<Variable<unknown>>([choice, ...setting.variables])],
    read: (env) => (choice.read(env) === selected ? setting.read(env) : null),
  };
}
