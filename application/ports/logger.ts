/** The subset of a structured logger the application uses; secrets never go in `fields`. */
export interface Logger {
  /** Optional: lines nobody needs unless they debug; loggers without it drop them. */
  debug?(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
  child(fields: Record<string, unknown>): Logger;
}
