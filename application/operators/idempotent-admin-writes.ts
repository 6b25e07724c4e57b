import { IdempotencyKeyReusedError } from '../../domain/errors.js';
import { RequestAlreadyAppliedError } from '../errors.js';
import type { AdminRequestLog } from '../ports/admin-request-log.js';
import { DuplicateEventError } from '../ports/event-store.js';
import type { Operator } from '../ports/operator-tokens.js';

export interface AdminAnswer {
  status: number;
  body: unknown;
}

/**
 * Admin writes under an Idempotency-Key (a payment system's retried call) happen once. The answer is kept under the
 * operator's token and the key, and a retry of the same request gets it again; the same key with another request is
 * refused. A retry that arrives while the answer is not kept yet (the first attempt still running, or its process
 * gone after writing) writes events with the same seeded ids, which the event store refuses as duplicates: it is
 * answered with the kept answer if there is one by then, otherwise with a conflict. A refused write keeps nothing, so
 * it may be retried.
 */
export class IdempotentAdminWrites {
  constructor(private readonly log: AdminRequestLog) {}

  async run(
    operator: Operator,
    request: { idempotencyKey?: string; requestHash: string },
    write: (idempotencySeed: string | undefined) => Promise<AdminAnswer>,
  ): Promise<AdminAnswer & { replayed: boolean }> {
    const key = request.idempotencyKey;
    if (key === undefined) return { ...(await write(undefined)), replayed: false };
    const kept = await this.keptAnswer(operator, key, request.requestHash);
    if (kept !== null) return { ...kept, replayed: true };
    let answer: AdminAnswer;
    try {
      answer = await write(`admin:${operator.tokenId}:${key}`);
    } catch (error) {
      if (!(error instanceof DuplicateEventError)) throw error;
      const keptSince = await this.keptAnswer(operator, key, request.requestHash);
      if (keptSince === null) throw new RequestAlreadyAppliedError();
      return { ...keptSince, replayed: true };
    }
    const stored = await this.log.record(operator.tokenId, key, { requestHash: request.requestHash, ...answer });
    return { status: stored.status, body: stored.body, replayed: stored.body !== answer.body };
  }

  private async keptAnswer(operator: Operator, key: string, requestHash: string): Promise<AdminAnswer | null> {
    const kept = await this.log.find(operator.tokenId, key);
    if (kept === null) return null;
    if (kept.requestHash !== requestHash) throw new IdempotencyKeyReusedError(key);
    return { status: kept.status, body: kept.body };
  }
}
