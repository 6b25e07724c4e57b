import assert from 'node:assert/strict';
import { DomainError } from '../../../../domain/errors.js';
import type { SubscriptionCommand } from '../../../../domain/subscription/commands.js';
import { subscriptionDecider } from '../../../../domain/subscription/decider.js';
import type { SubmissionRefusalCode, SubscriptionEvent } from '../../../../domain/subscription/events.js';
import type { SubscriptionState } from '../../../../domain/subscription/state.js';
import { create, subscriptionId, t0, uploads } from '../subscription-examples.js';
import { seededRandom } from '../../../support/seeded-random.js';

type Random = (below: number) => number;

/** The world around one subscription: a clock and a channel that gains uploads now and then. */
interface World {
  now: number;
  uploads: number;
  step: number;
}

const REFUSALS: readonly SubmissionRefusalCode[] = ['PENDING_LIMIT', 'CREDIT_LIMIT_REACHED', 'PRIVATE_VIDEO'];

function someSubmittedJob(random: Random, state: SubscriptionState): { videoId: string; jobId: string } | null {
  if (state.status === 'none') return null;
  const submitted = Object.values(state.submitted);
  return submitted.length === 0 ? null : submitted[random(submitted.length)];
}

function randomCommand(random: Random, world: World, state: SubscriptionState): SubscriptionCommand {
  const now = new Date(world.now).toISOString();
  const checkId =
    state.status !== 'none' && random(3) > 0 ? (state.checkInProgress?.checkId ?? `c${world.step}`) : `c${world.step}`;
  const choice = random(12);
  if (choice < 3) return { type: 'StartCheck', data: { subscriptionId, checkId, takeOverAfterMs: 300_000, now } };
  if (choice < 5) {
    const listed = uploads(world.uploads).slice(0, 10);
    return { type: 'CompleteCheck', data: { subscriptionId, checkId, listed, listingUnits: 1, now } };
  }
  if (choice < 7) {
    const jobIds = [`j${world.step}a`, `j${world.step}b`, `j${world.step}c`];
    return { type: 'SubmitVideos', data: { subscriptionId, freeSlots: random(4), jobIds, now } };
  }
  const job = someSubmittedJob(random, state);
  if (choice < 9 && job !== null)
    return {
      type: 'RefuseSubmission',
      data: { subscriptionId, ...job, code: REFUSALS[random(3)], message: 'refused', now },
    };
  if (choice === 9)
    return { type: 'FailCheck', data: { subscriptionId, checkId, errorCode: null, reason: 'x', notBefore: null, now } };
  if (choice === 10)
    return { type: random(2) === 0 ? 'PauseSubscription' : 'ResumeSubscription', data: { subscriptionId, now } };
  return random(20) === 0
    ? { type: 'DeleteSubscription', data: { subscriptionId, now } }
    : { type: 'ChangeInterval', data: { subscriptionId, checkEveryMinutes: 15 * (1 + random(4)), now } };
}

/** Jobs of each video that were written: a submission counts until a refusal sends the video back. */
function countLiveJobs(live: Map<string, number>, event: SubscriptionEvent): void {
  if (event.type === 'SubscriptionVideoSubmitted')
    live.set(event.data.videoId, (live.get(event.data.videoId) ?? 0) + 1);
  if (event.type === 'SubscriptionVideoDeferred' && event.data.jobId !== null)
    live.set(event.data.videoId, (live.get(event.data.videoId) ?? 0) - 1);
}

function checkDecision(
  before: SubscriptionState,
  decided: readonly SubscriptionEvent[],
  liveJobs: Map<string, number>,
): void {
  const submits = decided.filter((event) => event.type === 'SubscriptionVideoSubmitted');
  if (before.status !== 'active') assert.deepEqual(submits, [], `a ${before.status} subscription submitted`);
  for (const [videoId, jobs] of liveJobs) assert.ok(jobs <= 1, `${videoId} has ${jobs} jobs`);
  // Uploads 1-3 were on the channel before the first check of a subscription that starts new.
  for (const event of submits) assert.ok(!['v1', 'v2', 'v3'].includes((event.data as { videoId: string }).videoId));
}

/** What the histories reached, to show they reach what the rules are about. */
type Reached = Record<'submitted' | 'pausedForCredit' | 'resumed' | 'takenOver', number>;

function tally(reached: Reached, before: SubscriptionState, decided: readonly SubscriptionEvent[]): void {
  for (const event of decided) {
    if (event.type === 'SubscriptionVideoSubmitted') reached.submitted += 1;
    if (event.type === 'SubscriptionPaused' && event.data.pausedBy === 'subscription') reached.pausedForCredit += 1;
    if (event.type === 'SubscriptionResumed') reached.resumed += 1;
    if (event.type === 'SubscriptionCheckStarted' && before.status !== 'none' && before.checkInProgress !== null)
      reached.takenOver += 1;
  }
}

/** One history of 80 random commands from `seed`, each decision checked as it is made. */
function walk(seed: number, reached: Reached): void {
  const random = seededRandom(seed);
  const world: World = { now: Date.parse(t0), uploads: 3, step: 0 };
  const liveJobs = new Map<string, number>();
  let state = subscriptionDecider.initialState();
  const apply = (events: readonly SubscriptionEvent[]) => {
    for (const event of events) {
      state = subscriptionDecider.evolve(state, event);
      countLiveJobs(liveJobs, event);
    }
  };
  apply(subscriptionDecider.decide(create(), state));
  for (; world.step < 80; world.step += 1) {
    world.now += random(40) * 60_000;
    if (random(4) === 0) world.uploads += 1 + random(3);
    const before = state;
    const command = randomCommand(random, world, before);
    let decided: SubscriptionEvent[] = [];
    try {
      decided = subscriptionDecider.decide(command, before);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
    apply(decided);
    try {
      checkDecision(before, decided, liveJobs);
    } catch (error) {
      throw new Error(`seed ${seed}, step ${world.step} (${command.type}): ${(error as Error).message}`);
    }
    tally(reached, before, decided);
  }
}

describe('subscription decider: its rules hold over random histories', () => {
  it('no video gets two jobs, a paused or deleted subscription submits nothing, and what was there before it is left alone', () => {
    const reached: Reached = { submitted: 0, pausedForCredit: 0, resumed: 0, takenOver: 0 };
    for (let seed = 1; seed <= 200; seed += 1) walk(seed, reached);
    assert.ok(
      Object.values(reached).every((count) => count >= 20),
      `the histories reach too little of what the rules are about: ${JSON.stringify(reached)}`,
    );
  });
});
