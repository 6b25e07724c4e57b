import type { AuditReport } from '../../../application/audit/replay-account-ledger.js';
import type { WebhookDeliveryHistory } from '../../../application/audit/webhook-delivery-history.js';
import type { StoredEventRow } from './stored-event-row.js';

/** A job as its owner polled it when the store was written. */
export interface PolledJob {
  path: string;
  apiKey: string;
  view: unknown;
}

/**
 * An event store written by the service of the day, with what that service
 * answered about it, so a later service can be shown to read it alike.
 */
export interface WrittenStoreFixture {
  /** The instant the answers below hold for: a reader fixes its clock here. */
  writtenAt: string;
  /** The reader's settings: a test master key, so the stored API keys still open, and the file retention the links were signed with. */
  env: Record<string, string>;
  accounts: Array<{ accountId: string; apiKey: string; me: unknown; ledger: AuditReport }>;
  jobs: PolledJob[];
  webhookDeliveries: Array<{ jobId: string; history: WebhookDeliveryHistory }>;
  /** Per stream, each decider's folded state. */
  states: Record<string, Record<string, unknown>>;
  events: StoredEventRow[];
}
