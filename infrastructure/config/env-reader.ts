export type Env = Record<string, string | undefined>;

/** Reads environment variables; a blank value counts as unset. */
export class EnvReader {
  constructor(private readonly env: Env) {}

  optional(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }
}
