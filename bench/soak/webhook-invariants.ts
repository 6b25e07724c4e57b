import {
  ReadWebhookDeliveryHistory,
  type WebhookDeliveryHistory,
} from '../../application/audit/webhook-delivery-history.js';
import { PostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.js';
import type { JobLedger } from './job-ledger.js';
import { verifyWebhookSignature } from '../../infrastructure/webhooks/verify-webhook-signature.js';
import type { ReceivedAttempt, ReceiverKind, WebhookReceivers } from './webhook-receivers.js';

/** How each receiver's deliveries must end. */
const EXPECTED: Record<ReceiverKind, WebhookDeliveryHistory['result']> = {
  ok: 'acknowledged',
  error: 'gave_up',
  gone: 'stopped',
  hang: 'gave_up',
};
/** A retry may start a little before its due time as the two clocks read it, not more. */
const EARLY_TOLERANCE_MS = 50;

/** A job's or a batch's webhook, as the client asked for it. */
interface WebhookOwner {
  /** The job's or batch's id, which its deliveries carry as `X-Service-Job-Id`. */
  id: string;
  what: 'job' | 'batch';
  webhook: ReceiverKind;
  /** The API key the account signs with. */
  key: string;
}

function webhookOwners(ledger: JobLedger): WebhookOwner[] {
  return [
    ...ledger.jobs.flatMap((job) =>
      job.webhook === null ? [] : [{ id: job.jobId, what: 'job' as const, webhook: job.webhook, key: job.key }],
    ),
    ...ledger.batches.flatMap((batch) =>
      batch.webhook === null
        ? []
        : [{ id: batch.batchId, what: 'batch' as const, webhook: batch.webhook, key: batch.key }],
    ),
  ];
}

/** Waits until no delivery is pending (bounded), and answers every job's and batch's history from the event store. */
export async function deliveryHistories(
  databaseUrl: string,
  ledger: JobLedger,
  deadline: number,
): Promise<Map<string, WebhookDeliveryHistory>> {
  const store = new PostgresEventStore({ connectionString: databaseUrl, pollIntervalMs: 60_000 });
  const read = new ReadWebhookDeliveryHistory(store);
  const histories = new Map<string, WebhookDeliveryHistory>();
  try {
    for (const owner of webhookOwners(ledger)) {
      for (;;) {
        const history = owner.what === 'job' ? await read.execute(owner.id) : await read.forBatch(owner.id);
        if (history !== null) histories.set(owner.id, history);
        if ((history !== null && history.result !== 'pending') || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  } finally {
    await store.close();
  }
  return histories;
}

/** Every webhook delivered or given up as its receiver and the schedule say; nothing early, nothing after a 410, nothing past attempt 10. */
export function checkWebhooks(
  ledger: JobLedger,
  histories: Map<string, WebhookDeliveryHistory>,
  receivers: Pick<WebhookReceivers, 'attemptsFor'>,
): string[] {
  return webhookOwners(ledger).flatMap((owner) =>
    checkOne(owner, histories.get(owner.id), receivers.attemptsFor(owner.id)),
  );
}

function checkOne(
  owner: WebhookOwner,
  history: WebhookDeliveryHistory | undefined,
  seen: readonly ReceivedAttempt[],
): string[] {
  const where = `webhook of ${owner.what} ${owner.id} (${owner.webhook} receiver)`;
  const broken = checkSignatures(where, owner.key, seen);
  if (history === undefined) return [...broken, `${where}: no delivery history`];
  const expected = EXPECTED[owner.webhook];
  if (history.result !== expected)
    broken.push(`${where}: ended ${history.result}, expected ${expected}, after ${history.attempts.length} attempts`);
  if (expected === 'gave_up' && history.result === 'gave_up' && history.attempts.length !== 10)
    broken.push(`${where}: gave up after ${history.attempts.length} attempts, not 10`);
  history.attempts.forEach((attempt, index) => {
    if (attempt.attempt !== index + 1)
      broken.push(`${where}: attempt ${attempt.attempt} recorded in place ${index + 1}`);
    const before = history.attempts[index - 1];
    if (before?.finishedAt != null && before.nextDelayMs !== null) {
      const due = Date.parse(before.finishedAt) + before.nextDelayMs;
      if (Date.parse(attempt.startedAt) < due - EARLY_TOLERANCE_MS)
        broken.push(`${where}: attempt ${attempt.attempt} started ${due - Date.parse(attempt.startedAt)} ms early`);
    }
  });
  if (seen.some((attempt) => attempt.attempt < 1 || attempt.attempt > 10))
    broken.push(`${where}: the receiver saw attempts ${seen.map((attempt) => attempt.attempt).join(', ')}`);
  // A 410 recorded stops delivery. One the worker never recorded (it died after sending) is lost with it, and at least
  // once delivery sends that attempt's successor: only attempts after a recorded 410 are wrong.
  const stopped = history.attempts.find((attempt) => attempt.statusCode === 410);
  if (stopped !== undefined && seen.some((attempt) => attempt.attempt > stopped.attempt))
    broken.push(
      `${where}: attempts after the 410 recorded for attempt ${stopped.attempt}: ${seen.map((attempt) => attempt.attempt).join(', ')}`,
    );
  if (history.result === 'acknowledged' && !seen.some((attempt) => attempt.answered === 200))
    broken.push(`${where}: recorded acknowledged but the receiver never answered 200`);
  return broken;
}

/** Every delivery the receiver saw carries a signature of its body with the account's key, made when it was sent. */
function checkSignatures(where: string, key: string, seen: readonly ReceivedAttempt[]): string[] {
  return seen.flatMap((attempt) => {
    const verdict = verifyWebhookSignature(attempt.rawBody, attempt.signature, key, { now: attempt.at });
    return verdict.ok ? [] : [`${where}: attempt ${attempt.attempt} has a bad signature (${verdict.reason})`];
  });
}
