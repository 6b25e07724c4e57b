/** What operators see of the running service beyond accounts: dead letters, failing webhooks, processes. */

export interface DeadLetter {
  id: string;
  recordedAt: string;
  reason: string;
  subject: string | null;
  deliveries: number | null;
  body: unknown;
  replayedAt: string | null;
}

export interface DeadLetterStore {
  /** Newest first. */
  list(page: { offset: number; limit: number }): Promise<{ deadLetters: DeadLetter[]; total: number }>;
  get(id: string): Promise<DeadLetter | null>;
  /** Marks the letter replayed unless it already was: true for the call that marked it. */
  markReplayed(id: string, at: Date): Promise<boolean>;
}

export interface FailingWebhookDelivery {
  /** The stream the delivery lives in: a job's, a batch's, a subscription's. */
  streamName: string;
  jobId: string;
  accountId: string;
  url: string | null;
  event: string | null;
  attempts: number;
  /** `retrying` (another attempt is due), `ended` (no attempt follows), `stopped` (410), `gave_up`, `attempting` (retry under way). */
  state: 'attempting' | 'retrying' | 'ended' | 'stopped' | 'gave_up';
  statusCode: number | null;
  errorClass: string | null;
  detail: string | null;
  failedAt: string;
  nextAttemptAt: string | null;
}

export interface FailingWebhookDeliveries {
  /** Latest failure first. */
  list(page: { offset: number; limit: number }): Promise<{ deliveries: FailingWebhookDelivery[]; total: number }>;
}

export interface ProcessHeartbeat {
  processId: string;
  role: string;
  host: string;
  pid: number;
  startedAt: string;
  lastBeatAt: string;
}

export interface ProcessHeartbeats {
  /** Processes whose last beat is at most `withinSeconds` old, by role. */
  recent(withinSeconds: number): Promise<ProcessHeartbeat[]>;
}
