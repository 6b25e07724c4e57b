import { ConfigError } from './config-error.js';

export type Env = Record<string, string | undefined>;

/** Reads environment variables; a blank value counts as unset, a bad one is a ConfigError naming it. */
export class EnvReader {
  constructor(private readonly env: Env) {}

  optional(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  string(name: string, fallback: string): string {
    return this.optional(name) ?? fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!/^-?\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
    return value;
  }

  list(name: string, fallback: string[]): string[] {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    return raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  }

  url(name: string, fallback: string): string {
    const value = this.string(name, fallback);
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(name, `must be an absolute http(s) URL, got "${value}"`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new ConfigError(name, `must be an http(s) URL, got "${value}"`);
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.optional(name) ?? fallback;
    if (!(allowed as readonly string[]).includes(value))
      throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${value}"`);
    return value as T;
  }

  /** `youtube.com=a|b,*=c`: a value per platform host, `*` for every platform. */
  perPlatform<T>(name: string, parse: (value: string) => T): Record<string, T> {
    const result: Record<string, T> = {};
    for (const entry of this.list(name, [])) {
      const separator = entry.indexOf('=');
      if (separator <= 0 || separator === entry.length - 1)
        throw new ConfigError(name, `must list platform=value entries (platform * for all), got "${entry}"`);
      result[entry.slice(0, separator).toLowerCase()] = parse(entry.slice(separator + 1));
    }
    return result;
  }
}
