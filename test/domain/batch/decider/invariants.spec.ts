import assert from 'node:assert/strict';
import type { BatchCommand } from '../../../../domain/batch/commands.js';
import { batchDecider } from '../../../../domain/batch/decider.js';
import type { BatchEvent } from '../../../../domain/batch/events.js';
import { CREDIT_LIMIT_REFUSAL } from '../../../../domain/batch/refusal.js';
import { type BatchState, type RequestedBatchState, isTerminalVideo } from '../../../../domain/batch/state.js';
import { DomainError } from '../../../../domain/errors.js';
import { seededRandom } from '../../../support/seeded-random.js';
import { batchId, listed, requested, t2, video } from '../batch-examples.js';

type Random = (below: number) => number;

/** Mostly a job the batch admitted, now and then one it never did. */
function someJobId(random: Random, state: RequestedBatchState): string {
  const admitted = Object.keys(state.jobVideos);
  return admitted.length === 0 || random(5) === 0 ? `unknown-${random(3)}` : admitted[random(admitted.length)];
}

function randomCommand(random: Random, state: RequestedBatchState, step: number): BatchCommand {
  const now = t2;
  switch (random(7)) {
    case 0:
    case 1:
      return { type: 'AdmitVideos', data: { batchId, freeSlots: random(4), jobIds: [`s${step}a`, `s${step}b`], now } };
    case 2:
    case 3: {
      const status = (['completed', 'failed', 'cancelled'] as const)[random(3)];
      return { type: 'SettleVideo', data: { batchId, jobId: someJobId(random, state), status, now } };
    }
    case 4: {
      const refusal = random(2) === 0 ? CREDIT_LIMIT_REFUSAL : { code: 'PRIVATE_VIDEO' as const, message: 'Private' };
      const videoUrl = video(1 + random(state.videos?.length ?? 1));
      return { type: 'RefuseVideo', data: { batchId, videoUrl, ...refusal, now } };
    }
    case 5:
      return random(4) === 0
        ? { type: 'CancelBatch', data: { batchId, now } }
        : { type: 'RetryBatch', data: { batchId, now } };
    default:
      return { type: 'AdmitVideos', data: { batchId, freeSlots: 1, jobIds: [`s${step}a`], now } };
  }
}

/** The rules of the batch, checked on each event as it comes and on the state it leaves. */
class BatchRules {
  private readonly admissions = new Map<string, number>();
  private readonly retries = new Map<string, number>();
  private readonly jobIds = new Set<string>();
  private finishedThisRound = 0;
  readonly reached = { finishes: 0, secondRounds: 0, creditRefusals: 0, cancellations: 0 };

  record(event: BatchEvent): void {
    if (event.type === 'BatchVideoAdmitted') {
      const { videoUrl, jobId } = event.data;
      this.admissions.set(videoUrl, (this.admissions.get(videoUrl) ?? 0) + 1);
      assert.ok(!this.jobIds.has(jobId), `job id ${jobId} given twice`);
      this.jobIds.add(jobId);
      const retried = this.retries.get(videoUrl) ?? 0;
      assert.ok((this.admissions.get(videoUrl) ?? 0) <= 1 + retried, `${videoUrl} admitted again, ${retried} retries`);
    }
    if (event.type === 'BatchRetryRequested') {
      for (const url of event.data.videoUrls) this.retries.set(url, (this.retries.get(url) ?? 0) + 1);
      this.finishedThisRound = 0;
    }
    if (event.type === 'BatchFinished') this.finishedThisRound += 1;
    assert.ok(this.finishedThisRound <= 1, 'finished twice in one round');
    this.tally(event);
  }

  checkState(state: RequestedBatchState): void {
    const done = state.videos?.every(isTerminalVideo) === true;
    assert.equal(state.finishedAt !== null, done, 'finished exactly when every video is terminal');
  }

  private tally(event: BatchEvent): void {
    if (event.type === 'BatchFinished') this.reached.finishes += 1;
    if (event.type === 'BatchFinished' && event.data.round > 1) this.reached.secondRounds += 1;
    if (event.type === 'BatchVideoRefused' && event.data.code === 'CREDIT_LIMIT_REACHED')
      this.reached.creditRefusals += 1;
    if (event.type === 'BatchCancelled') this.reached.cancellations += 1;
  }
}

/** One history of 50 random commands from `seed`, over a listing of 1 to 6 videos. */
function walk(seed: number, rules: BatchRules): void {
  const random = seededRandom(seed);
  let state: BatchState = [requested(), listed(1 + random(6))].reduce(batchDecider.evolve, batchDecider.initialState());
  for (let step = 0; step < 50; step += 1) {
    const command = randomCommand(random, state as RequestedBatchState, step);
    try {
      let decided: BatchEvent[] = [];
      try {
        decided = batchDecider.decide(command, state);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
      }
      for (const event of decided) rules.record(event);
      state = decided.reduce(batchDecider.evolve, state);
      rules.checkState(state as RequestedBatchState);
    } catch (error) {
      throw new Error(`seed ${seed}, step ${step} (${command.type}): ${(error as Error).message}`);
    }
  }
}

describe('batch decider: its rules hold over random histories', () => {
  it('a video is admitted once per round, a job id once, and the batch finishes exactly when every video is terminal', () => {
    const reached = { finishes: 0, secondRounds: 0, creditRefusals: 0, cancellations: 0 };
    for (let seed = 1; seed <= 300; seed += 1) {
      const rules = new BatchRules();
      walk(seed, rules);
      for (const key of Object.keys(reached) as (keyof typeof reached)[]) reached[key] += rules.reached[key];
    }
    assert.ok(
      Object.values(reached).every((count) => count >= 20),
      `the histories reach too little of what the rules are about: ${JSON.stringify(reached)}`,
    );
  });
});
