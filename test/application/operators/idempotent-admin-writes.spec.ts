import assert from 'node:assert/strict';
import { RequestAlreadyAppliedError } from '../../../application/errors.js';
import { IdempotentAdminWrites } from '../../../application/operators/idempotent-admin-writes.js';
import type { AdminRequestLog, RecordedAnswer } from '../../../application/ports/admin-request-log.js';
import { DuplicateEventError } from '../../../application/ports/event-store.js';
import type { Operator } from '../../../application/ports/operator-tokens.js';
import { IdempotencyKeyReusedError } from '../../../domain/errors.js';

class MemoryLog implements AdminRequestLog {
  readonly kept = new Map<string, RecordedAnswer>();
  async find(tokenId: string, key: string) {
    return this.kept.get(`${tokenId}/${key}`) ?? null;
  }
  async record(tokenId: string, key: string, answer: RecordedAnswer) {
    const kept = this.kept.get(`${tokenId}/${key}`);
    if (kept !== undefined) return kept;
    this.kept.set(`${tokenId}/${key}`, answer);
    return answer;
  }
}

const operator: Operator = { tokenId: 't1', name: 'billing', scope: 'write' };

describe('IdempotentAdminWrites', () => {
  it('runs a write without a key every time, unseeded', async () => {
    const writes = new IdempotentAdminWrites(new MemoryLog());
    const seeds: Array<string | undefined> = [];
    for (let index = 0; index < 2; index += 1)
      await writes.run(operator, { requestHash: 'h' }, async (seed) => {
        seeds.push(seed);
        return { status: 200, body: index };
      });
    assert.deepEqual(seeds, [undefined, undefined]);
  });

  it('runs a keyed write once, seeded by token and key, and answers a retry with the kept answer', async () => {
    const writes = new IdempotentAdminWrites(new MemoryLog());
    let runs = 0;
    const write = async (seed: string | undefined) => {
      runs += 1;
      assert.equal(seed, 'admin:t1:k1');
      return { status: 201, body: { runs } };
    };
    const first = await writes.run(operator, { idempotencyKey: 'k1', requestHash: 'h' }, write);
    const again = await writes.run(operator, { idempotencyKey: 'k1', requestHash: 'h' }, write);
    assert.deepEqual(
      [first, again],
      [
        { status: 201, body: { runs: 1 }, replayed: false },
        { status: 201, body: { runs: 1 }, replayed: true },
      ],
    );
    assert.equal(runs, 1);
  });

  it('refuses the key with another request, keeps no refused write, and keeps keys apart per token', async () => {
    const log = new MemoryLog();
    const writes = new IdempotentAdminWrites(log);
    await assert.rejects(
      writes.run(operator, { idempotencyKey: 'k', requestHash: 'h' }, async () => {
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.equal(log.kept.size, 0);
    await writes.run(operator, { idempotencyKey: 'k', requestHash: 'h' }, async () => ({ status: 200, body: 1 }));
    await assert.rejects(
      writes.run(operator, { idempotencyKey: 'k', requestHash: 'other' }, async () => ({ status: 200, body: 2 })),
      IdempotencyKeyReusedError,
    );
    const another = { ...operator, tokenId: 't2' };
    const answer = await writes.run(another, { idempotencyKey: 'k', requestHash: 'other' }, async () => ({
      status: 200,
      body: 3,
    }));
    assert.equal(answer.body, 3);
  });

  it('answers a retry whose events the store refused as duplicates with the kept answer, or a conflict', async () => {
    const log = new MemoryLog();
    const writes = new IdempotentAdminWrites(log);
    const duplicate = async (): Promise<never> => {
      throw new DuplicateEventError('e1');
    };
    await assert.rejects(
      writes.run(operator, { idempotencyKey: 'k', requestHash: 'h' }, duplicate),
      RequestAlreadyAppliedError,
    );
    // The first attempt kept its answer meanwhile: the retry gets it.
    const racing = writes.run(operator, { idempotencyKey: 'k2', requestHash: 'h' }, async () => {
      await log.record('t1', 'k2', { requestHash: 'h', status: 200, body: 'first' });
      throw new DuplicateEventError('e2');
    });
    assert.deepEqual(await racing, { status: 200, body: 'first', replayed: true });
  });
});
