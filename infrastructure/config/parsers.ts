import { InvalidValue } from './invalid-value.js';

/** How a set variable's text becomes its value; each throws InvalidValue saying what is wrong. */
export type Parser<T> = (raw: string) => T;

/** Comma-separated, blank items dropped. */
export const commaList: Parser<string[]> = (raw) =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

export function wholeNumber(min: number, max: number): Parser<number> {
  return (raw) => {
    if (!/^-?\d+$/.test(raw)) throw new InvalidValue(`must be a whole number, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) throw new InvalidValue(`must be between ${min} and ${max}, got ${value}`);
    return value;
  };
}

export const httpUrl: Parser<string> = (raw) => {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new InvalidValue(`must be an absolute http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new InvalidValue(`must be an http(s) URL, got "${raw}"`);
  return raw;
};

export function oneOf<T extends string>(allowed: readonly T[]): Parser<T> {
  return (raw) => {
    if (!(allowed as readonly string[]).includes(raw))
      throw new InvalidValue(`must be one of ${allowed.join(', ')}, got "${raw}"`);
    return raw as T;
  };
}

/** `youtube.com=a|b,*=c`: a value per platform host, `*` for every platform. */
export function perPlatform<T>(parseValue: Parser<T>): Parser<Record<string, T>> {
  return (raw) => {
    const result: Record<string, T> = {};
    for (const entry of commaList(raw)) {
      const separator = entry.indexOf('=');
      if (separator <= 0 || separator === entry.length - 1)
        throw new InvalidValue(`must list platform=value entries (platform * for all), got "${entry}"`);
      result[entry.slice(0, separator).toLowerCase()] = parseValue(entry.slice(separator + 1));
    }
    return result;
  };
}
