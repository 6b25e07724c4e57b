import { group } from './compose-settings.js';
import type { Declarations, DeclaredSettings, Setting } from './setting.js';

/** A part of the configuration: one table of the README, one object of the loaded configuration. */
export interface ConfigSection<T> extends Setting<T> {
  readonly title: string;
}

/**
 * A section from its settings by field name; `check` refuses combinations of values (with a ConfigError naming the
 * variable to change) once every field is read.
 */
export function section<D extends Declarations>(
  title: string,
  declarations: D,
  check: (settings: DeclaredSettings<D>) => void = () => {},
): ConfigSection<DeclaredSettings<D>> {
  const settings = group(declarations);
  return {
    title,
    variables: settings.variables,
    read: (env) => {
      const read = settings.read(env);
      check(read);
      return read;
    },
  };
}
