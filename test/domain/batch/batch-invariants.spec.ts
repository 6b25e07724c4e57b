import assert from 'node:assert/strict';
import type { BatchCommand } from '../../../domain/batch/commands.js';
import { batchDecider } from '../../../domain/batch/decider.js';
import type { BatchEvent } from '../../../domain/batch/events.js';
import { CREDIT_LIMIT_REFUSAL } from '../../../domain/batch/refusal.js';
import { type RequestedBatchState, isTerminalVideo } from '../../../domain/batch/state.js';
import { foldEvents } from '../../../domain/decider.js';
import { DomainError } from '../../../domain/errors.js';
import { batchId, listed, requested, t2, video } from './batch-examples.js';
import { seededRandom } from '../../support/seeded-random.js';

/** Mostly a job the batch admitted, now and then one it never did. */
function someJobId(random: (below: number) => number, events: readonly BatchEvent[]): string {
  const admitted = events.flatMap((event) => (event.type === 'BatchVideoAdmitted' ? [event.data.jobId] : []));
  return admitted.length === 0 || random(5) === 0 ? `unknown-${random(3)}` : admitted[random(admitted.length)];
}

function randomCommand(random: (below: number) => number, events: readonly BatchEvent[], step: number): BatchCommand {
  const now = t2;
  const videos = (foldEvents(batchDecider, events) as RequestedBatchState).videos?.length ?? 0;
  switch (random(7)) {
    case 0:
    case 1:
      return {
        type: 'AdmitVideos',
        data: { batchId, freeSlots: random(4), jobIds: [`s${step}a`, `s${step}b`, `s${step}c`], now },
      };
    case 2:
    case 3: {
      const status = (['completed', 'failed', 'cancelled'] as const)[random(3)];
      return { type: 'SettleVideo', data: { batchId, jobId: someJobId(random, events), status, now } };
    }
    case 4: {
      const refusal = random(2) === 0 ? CREDIT_LIMIT_REFUSAL : { code: 'PRIVATE_VIDEO' as const, message: 'Private' };
      return { type: 'RefuseVideo', data: { batchId, videoUrl: video(1 + random(videos)), ...refusal, now } };
    }
    case 5:
      return random(4) === 0
        ? { type: 'CancelBatch', data: { batchId, now } }
        : { type: 'RetryBatch', data: { batchId, now } };
    default:
      return { type: 'AdmitVideos', data: { batchId, freeSlots: 1, jobIds: [`s${step}a`], now } };
  }
}

/** The rules of the batch, checked on its whole history. */
function checkHistory(events: readonly BatchEvent[]): void {
  const admissions = new Map<string, number>();
  const retries = new Map<string, number>();
  const jobIds = new Set<string>();
  let finishedSinceRetry = 0;
  for (const event of events) {
    if (event.type === 'BatchVideoAdmitted') {
      admissions.set(event.data.videoUrl, (admissions.get(event.data.videoUrl) ?? 0) + 1);
      assert.ok(!jobIds.has(event.data.jobId), `job id ${event.data.jobId} given twice`);
      jobIds.add(event.data.jobId);
    }
    if (event.type === 'BatchRetryRequested') {
      for (const url of event.data.videoUrls) retries.set(url, (retries.get(url) ?? 0) + 1);
      finishedSinceRetry = 0;
    }
    if (event.type === 'BatchFinished') finishedSinceRetry += 1;
    assert.ok(finishedSinceRetry <= 1, 'finished twice in one round');
  }
  for (const [url, count] of admissions)
    assert.ok(
      count <= 1 + (retries.get(url) ?? 0),
      `${url} admitted ${count} times with ${retries.get(url) ?? 0} retries`,
    );
  const state = foldEvents(batchDecider, events) as RequestedBatchState;
  const done = state.videos?.every(isTerminalVideo) === true;
  assert.equal(state.finishedAt !== null, done, 'finished exactly when every video is terminal');
}

function tally(
  seen: Record<'finishes' | 'secondRounds' | 'creditRefusals' | 'cancellations', number>,
  events: readonly BatchEvent[],
): void {
  for (const event of events) {
    if (event.type === 'BatchFinished') seen.finishes += 1;
    if (event.type === 'BatchFinished' && event.data.round > 1) seen.secondRounds += 1;
    if (event.type === 'BatchVideoRefused' && event.data.code === 'CREDIT_LIMIT_REACHED') seen.creditRefusals += 1;
    if (event.type === 'BatchCancelled') seen.cancellations += 1;
  }
}

describe('batch decider: its rules hold over random histories', () => {
  it('a video is admitted once per round, a job id once, and the batch finishes exactly when every video is terminal', () => {
    const seen = { finishes: 0, secondRounds: 0, creditRefusals: 0, cancellations: 0 };
    for (let seed = 1; seed <= 300; seed += 1) {
      const random = seededRandom(seed);
      const events: BatchEvent[] = [requested(), listed(1 + random(6))];
      for (let step = 0; step < 50; step += 1) {
        const command = randomCommand(random, events, step);
        try {
          events.push(...batchDecider.decide(command, foldEvents(batchDecider, events)));
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
        }
        try {
          checkHistory(events);
        } catch (error) {
          throw new Error(`seed ${seed}, step ${step} (${command.type}): ${(error as Error).message}`);
        }
      }
      tally(seen, events);
    }
    // The histories reach what the rules are about: finishes, reopened batches, credit running out, cancellations.
    assert.ok(
      Object.values(seen).every((count) => count >= 20),
      JSON.stringify(seen),
    );
  });
});
