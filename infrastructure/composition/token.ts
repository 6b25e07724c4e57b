/**
 * A typed injection token: the type is carried by the token, so a registration or a
 * resolve of another type fails to compile. Ports are interfaces, which have no class to inject by.
 */
export class Token<T> {
  /** Never set: only the compiler reads it. */
  declare readonly type: T;
  readonly symbol: symbol;

  constructor(readonly name: string) {
    this.symbol = Symbol(name);
  }
}

export function token<T>(name: string): Token<T> {
  return new Token<T>(name);
}
