/** An admin write's answer, kept under its operator token and Idempotency-Key so that a retry gets it again. */
export interface RecordedAnswer {
  requestHash: string;
  status: number;
  body: unknown;
}

export interface AdminRequestLog {
  find(tokenId: string, idempotencyKey: string): Promise<RecordedAnswer | null>;
  /** Keeps `answer` unless one is already kept for the key (a concurrent retry's): returns the one kept. */
  record(tokenId: string, idempotencyKey: string, answer: RecordedAnswer): Promise<RecordedAnswer>;
}
