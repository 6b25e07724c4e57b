export interface IdGenerator {
  /** A new uuid. */
  next(): string;
}
