/** An error whose status and client-facing message are decided where it is thrown. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: string,
    readonly headers: Record<string, string> = {},
    /** What went wrong underneath, for the operator's log only. */
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HttpError';
  }
}
