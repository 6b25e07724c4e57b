import type { FunctionShape } from './function-shapes.js';

/** A limit on one measure of functions, and the offenders let through for now. */
export interface FunctionLimit {
  /** The measure of a function, or null for a function the limit does not judge. */
  readonly measure: (shape: FunctionShape) => number | null;
  readonly max: number;
  /** Functions let over the limit, as `path name`; each must still be over it, so the list cannot go stale. */
  readonly allowed: readonly string[];
}

export interface LimitReport {
  /** Functions over the limit and not let through, as `path name (measure)`. */
  readonly over: string[];
  /** Functions let through that are no longer over the limit (or no longer there): their entries must go. */
  readonly stale: string[];
}

/** The functions over `limit`, apart from those it lets through, and the entries it lets through for nothing. */
export function checkLimit(functions: readonly FunctionShape[], limit: FunctionLimit): LimitReport {
  const offenders = new Map<string, number>();
  for (const shape of functions) {
    const measure = limit.measure(shape);
    const id = `${shape.path} ${shape.name}`;
    if (measure !== null && measure > limit.max) offenders.set(id, Math.max(measure, offenders.get(id) ?? 0));
  }
  return {
    over: [...offenders]
      .filter(([id]) => !limit.allowed.includes(id))
      .map(([id, measure]) => `${id} (${measure})`)
      .sort(),
    stale: limit.allowed.filter((id) => !offenders.has(id)),
  };
}
