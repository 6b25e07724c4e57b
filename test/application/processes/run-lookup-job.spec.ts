import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CommandHandler } from '../../../application/command-handler.js';
import { lookUpVideoInfo } from '../../../application/lookups/look-up-video-info.js';
import { lookupJobSteps } from '../../../application/lookups/lookup-job-steps.js';
import type { Clock } from '../../../application/ports/clock.js';
import { ExtractionError } from '../../../application/ports/extractor/extraction-error.js';
import type { VideoMetadata } from '../../../application/ports/extractor/video-prober.js';
import type { Logger } from '../../../application/ports/logger.js';
import { ReleaseOrphanedLookup } from '../../../application/processes/release-orphaned-lookup.js';
import { RunLookupJob } from '../../../application/processes/run-lookup-job.js';
import { SettleLookupBilling } from '../../../application/processes/settle-lookup-billing.js';
import { routeEventToWork } from '../../../application/processes/work-routing.js';
import type { AppendOptions, EventToAppend } from '../../../application/ports/event-store.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import { INFO_JOB, INFO_JOB_CATEGORY, infoJobDecider } from '../../../domain/lookup-job/info-job.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { ScriptedExtractor } from '../../support/scripted-extractor.js';
import { givenAccount } from '../../support/givens/given-account.js';

/** An event store whose appends fail while `down`, as PostgreSQL's do during an outage. */
class OutageEventStore extends InMemoryEventStore {
  down = false;

  override async appendToStream(streamName: string, events: readonly EventToAppend[], options: AppendOptions) {
    if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    return super.appendToStream(streamName, events, options);
  }
}

const silent: Logger = { info() {}, warn() {}, error() {}, child: () => silent };
const video: VideoMetadata = {
  id: 'v',
  title: 'A video',
  duration: 61,
  liveStatus: 'not_live',
  tags: [],
  audioTracks: [{ type: 'original', language: 'en' }],
};

/** probe answers with the scripted outcomes in turn. */
function scriptedExtractor(outcomes: Array<VideoMetadata | Error>): ScriptedExtractor {
  const extractor = new ScriptedExtractor({
    probe: async () => {
      const outcome = outcomes[Math.min(extractor.probed.length - 1, outcomes.length - 1)];
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
  });
  return extractor;
}

describe('lookup processes (worker side)', () => {
  const ids = new RandomIds();
  let nowMs = Date.parse('2026-03-01T00:00:00Z');
  const clock: Clock = { now: () => new Date(nowMs) };
  const delivery = (attempt: number) => ({
    attempt,
    leaseId: `lease-${attempt}`,
    messageId: 'message',
    heartbeat() {},
  });

  async function setUp(
    outcomes: Array<VideoMetadata | Error>,
    includeAudioTracks = false,
    urls: { url: string; videoUrl?: string } = { url: 'https://www.youtube.com/watch?v=v' },
  ) {
    const store = new OutageEventStore();
    const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids);
    const jobs = new CommandHandler(store, infoJobDecider, INFO_JOB_CATEGORY, ids);
    const extractor = scriptedExtractor(outcomes);
    const settle = new SettleLookupBilling(accounts, clock, store, { record() {} });
    const run = new RunLookupJob({
      label: 'info lookup',
      steps: lookupJobSteps(INFO_JOB, jobs, lookUpVideoInfo(extractor)),
      settle,
      clock,
      logger: silent,
      options: { maxAttempts: 2, retryBaseDelayMs: 1000, retryMaxDelayMs: 60_000 },
    });
    const jobId = randomUUID();
    const now = new Date(nowMs).toISOString();
    const accountId = await givenAccount(store, { now });
    await accounts.handle(accountId, {
      type: 'ReserveLookup',
      data: { lookupId: jobId, feature: 'info', units: 1, subject: 'https://www.youtube.com/watch?v=v', now },
    });
    await jobs.handle(jobId, {
      type: 'RequestInfo',
      data: {
        jobId,
        accountId,
        ...urls,
        includeAudioTracks,
        expiresAt: new Date(nowMs + 3_600_000).toISOString(),
        now,
      },
    });
    const message = { jobId, accountId, occurredAt: now };
    const usage = async () => {
      const { state } = await accounts.load(accountId);
      return { used: state.usage.info, pending: state.pendingLookups?.length ?? 0 };
    };
    return { store, accounts, jobs, run, extractor, message, usage };
  }

  it('succeeds, charges the info unit, and a redelivery charges nothing more nor runs the extractor again', async () => {
    const { run, jobs, extractor, message, usage } = await setUp([video], true);
    assert.deepEqual(await run.handle(message, delivery(1)), { kind: 'done' });
    const { state } = await jobs.load(message.jobId);
    assert.equal(state.status, 'success');
    assert.deepEqual(state.status === 'success' ? state.result : null, {
      title: 'A video',
      duration: 61,
      url: 'https://www.youtube.com/watch?v=v',
      audio: [{ type: 'original', language: 'en' }],
    });
    assert.deepEqual(await usage(), { used: 1, pending: 0 });
    assert.deepEqual(await run.handle(message, delivery(2)), { kind: 'done' });
    assert.equal(extractor.probed.length, 1);
    assert.deepEqual(await usage(), { used: 1, pending: 0 });
  });

  it('asks the extractor at the canonical URL and answers the URL as submitted', async () => {
    const { run, jobs, extractor, message } = await setUp([video], false, {
      url: 'https://youtu.be/v?si=share',
      videoUrl: 'https://www.youtube.com/watch?v=v',
    });
    await run.handle(message, delivery(1));
    assert.deepEqual(extractor.probed, ['https://www.youtube.com/watch?v=v']);
    const { state } = await jobs.load(message.jobId);
    assert.deepEqual(state.status === 'success' ? state.result : null, {
      title: 'A video',
      duration: 61,
      url: 'https://youtu.be/v?si=share',
    });
  });

  it('asks at the recorded URL for a job recorded before the canonical one was', async () => {
    const { run, extractor, message } = await setUp([video], false, { url: 'https://www.youtube.com/watch?v=v' });
    await run.handle(message, delivery(1));
    assert.deepEqual(extractor.probed, ['https://www.youtube.com/watch?v=v']);
  });

  it('settles the account on a redelivery when the worker died after finishing the job', async () => {
    const { run, jobs, message, usage } = await setUp([video]);
    await jobs.handle(message.jobId, {
      type: 'CompleteInfo',
      data: { jobId: message.jobId, result: { title: 't', duration: 1, url: 'u' }, now: new Date(nowMs).toISOString() },
    });
    assert.deepEqual(await usage(), { used: 0, pending: 1 });
    await run.handle(message, delivery(2));
    assert.deepEqual(await usage(), { used: 1, pending: 0 });
  });

  it('fails a final condition at once with its code, releasing the unit', async () => {
    const { run, jobs, message, usage } = await setUp([new ExtractionError('PRIVATE_VIDEO', 'Private video')]);
    assert.deepEqual(await run.handle(message, delivery(1)), { kind: 'done' });
    const { state } = await jobs.load(message.jobId);
    assert.deepEqual(state.status === 'failed' ? [state.error, state.errorCode] : null, [
      'Private video',
      'PRIVATE_VIDEO',
    ]);
    assert.deepEqual(await usage(), { used: 0, pending: 0 });
  });

  it('retries transient failures, counting them in the job stream, then fails with NETWORK_ERROR when the attempts run out', async () => {
    const { run, jobs, store, message, usage } = await setUp([new ExtractionError('NETWORK_ERROR', 'timed out')]);
    assert.deepEqual(await run.handle(message, delivery(1)), { kind: 'retry', afterMs: 1000 });
    assert.equal((await jobs.load(message.jobId)).state.status, 'pending');
    await run.handle(message, delivery(2));
    const { state } = await jobs.load(message.jobId);
    assert.deepEqual(state.status === 'failed' ? state.errorCode : 'not failed', 'NETWORK_ERROR');
    assert.deepEqual(
      (await store.readStream(`info-${message.jobId}`)).map((event) => event.type),
      ['InfoRequested', 'InfoAttemptFailed', 'InfoFailed'],
    );
    assert.deepEqual(await usage(), { used: 0, pending: 0 });
  });

  it('records one failed attempt when two overlapping deliveries both see it fail', async () => {
    const { run, store, extractor, message } = await setUp([new ExtractionError('NETWORK_ERROR', 'timed out')]);
    // Both deliveries are looking the video up before either reports: the first one lapsed, the second took over.
    let release!: () => void;
    const bothStarted = new Promise<void>((resolve) => (release = resolve));
    const probe = extractor.probe.bind(extractor);
    extractor.probe = async (url: string) => {
      if (extractor.probed.length === 1) release();
      const answer = probe(url);
      await bothStarted;
      return answer;
    };
    await Promise.all([run.handle(message, delivery(1)), run.handle(message, delivery(2))]);
    assert.deepEqual(
      (await store.readStream(`info-${message.jobId}`)).map((event) => event.type),
      ['InfoRequested', 'InfoAttemptFailed'],
    );
  });

  it('gives an unrecognised failure no errorCode once the attempts run out', async () => {
    const { run, jobs, message } = await setUp([new ExtractionError(null, 'The extractor failed'), new Error('boom')]);
    await run.handle(message, delivery(1));
    await run.handle(message, delivery(2));
    const { state } = await jobs.load(message.jobId);
    assert.deepEqual(state.status === 'failed' ? [state.error, state.errorCode] : null, [
      'The lookup failed on the service side',
      null,
    ]);
  });

  it("retries an outage of the service's own database without spending the job's attempts, however many deliveries it takes", async () => {
    const { run, jobs, store, message, usage } = await setUp([video]);
    store.down = true;
    for (let attempt = 1; attempt <= 10; attempt += 1)
      await assert.rejects(run.handle(message, delivery(attempt)), /ECONNREFUSED/);
    store.down = false;
    assert.deepEqual(await run.handle(message, delivery(11)), { kind: 'done' });
    assert.equal((await jobs.load(message.jobId)).state.status, 'success');
    assert.deepEqual(await usage(), { used: 1, pending: 0 });
  });

  it('spends no attempt on a lookup its delivery stopped (a lapse, a shutdown), however often: the message is delivered again', async () => {
    const { run, jobs, store, extractor, message } = await setUp([video]);
    const probe = extractor.probe.bind(extractor);
    let stopNext = 3;
    extractor.probe = (url: string, options?: { signal?: AbortSignal }) => {
      if (stopNext === 0) return probe(url);
      stopNext -= 1;
      // As the command line reports a run it had to kill: an error that looks like the platform's.
      return new Promise((_, reject) =>
        options?.signal?.addEventListener(
          'abort',
          () => reject(new ExtractionError('NETWORK_ERROR', 'The extractor timed out')),
          { once: true },
        ),
      );
    };
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const stop = new AbortController();
      const handled = run.handle(message, { ...delivery(attempt), signal: stop.signal });
      setTimeout(() => stop.abort(new Error('The delivery lapsed')), 20);
      await assert.rejects(handled, /timed out/);
    }
    assert.deepEqual(
      (await store.readStream(`info-${message.jobId}`)).map((event) => event.type),
      ['InfoRequested'],
      'no attempt spent, nothing failed',
    );
    assert.deepEqual(await run.handle(message, delivery(4)), { kind: 'done' });
    assert.equal((await jobs.load(message.jobId)).state.status, 'success');
  });

  it('keeps its delivery alive while a long lookup runs', async () => {
    const { run, jobs, extractor, message } = await setUp([video]);
    let beats = 0;
    const probe = extractor.probe.bind(extractor);
    extractor.probe = async (url: string) => {
      // Longer than any ack wait of this test: it ends once the worker has beaten a few times, or fails after a generous deadline.
      const deadline = Date.now() + 15_000;
      while (beats < 3) {
        if (Date.now() > deadline) throw new Error(`only ${beats} heartbeats during the lookup`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return probe(url);
    };
    assert.deepEqual(await run.handle(message, { ...delivery(1), heartbeat: () => (beats += 1) }), { kind: 'done' });
    assert.equal((await jobs.load(message.jobId)).state.status, 'success');
  });

  it('settles the outcome another process gave the job while this worker was looking it up', async () => {
    const { run, jobs, message, usage } = await setUp([video]);
    const failedMeanwhile = {
      ...lookupJobSteps(INFO_JOB, jobs, lookUpVideoInfo(scriptedExtractor([video]))),
      complete: async () => {
        await jobs.handle(message.jobId, {
          type: 'FailInfo',
          data: {
            jobId: message.jobId,
            error: 'Not finished in time',
            errorCode: 'NETWORK_ERROR',
            now: new Date(nowMs).toISOString(),
          },
        });
        return lookupJobSteps(INFO_JOB, jobs, lookUpVideoInfo(scriptedExtractor([video]))).complete(
          message.jobId,
          { title: 't', duration: 1, url: 'u' },
          new Date(nowMs).toISOString(),
          {},
        );
      },
    };
    const settle = (run as unknown as { settle: SettleLookupBilling }).settle;
    const racing = new RunLookupJob({
      label: 'info lookup',
      steps: failedMeanwhile,
      settle,
      clock,
      logger: silent,
      options: {
        maxAttempts: 2,
        retryBaseDelayMs: 1000,
        retryMaxDelayMs: 60_000,
      },
    });
    assert.deepEqual(await racing.handle(message, delivery(1)), { kind: 'done' });
    assert.equal((await jobs.load(message.jobId)).state.status, 'failed');
    assert.deepEqual(await usage(), { used: 0, pending: 0 }, "the failed job's unit is released, not charged");
  });

  it('records an anomaly when a successful job finds no reservation to charge, but not for a repeated charge', async () => {
    const recorded: unknown[] = [];
    const { accounts, jobs, store, message } = await setUp([video]);
    const settle = new SettleLookupBilling(accounts, clock, store, {
      record: (kind, details) => recorded.push([kind, details]),
    });
    const run = new RunLookupJob({
      label: 'info lookup',
      steps: lookupJobSteps(INFO_JOB, jobs, lookUpVideoInfo(scriptedExtractor([video]))),
      settle,
      clock,
      logger: silent,
      options: { maxAttempts: 2, retryBaseDelayMs: 1000, retryMaxDelayMs: 60_000 },
    });
    await run.handle(message, delivery(1));
    await run.handle(message, delivery(2));
    assert.equal(recorded.length, 0, 'a charged job charged again is a plain repeat');

    const other = await setUp([video]);
    await other.accounts.handle(other.message.accountId, {
      type: 'ReleaseLookup',
      data: { lookupId: other.message.jobId, now: new Date(nowMs).toISOString() },
    });
    const otherSettle = new SettleLookupBilling(other.accounts, clock, other.store, {
      record: (kind, details) => recorded.push([kind, details]),
    });
    await new RunLookupJob({
      label: 'info lookup',
      steps: lookupJobSteps(INFO_JOB, other.jobs, lookUpVideoInfo(other.extractor)),
      settle: otherSettle,
      clock,
      logger: silent,
      options: { maxAttempts: 2, retryBaseDelayMs: 1000, retryMaxDelayMs: 60_000 },
    }).handle(other.message, delivery(1));
    assert.deepEqual(recorded, [
      ['charge_without_reservation', { accountId: other.message.accountId, lookupId: other.message.jobId }],
    ]);
  });

  it("marks every command a worker issues as caused by the event that set off the work, in that event's correlation", async () => {
    const { run, store, message } = await setUp([video]);
    const [requested] = await store.readStream(`info-${message.jobId}`);
    const [work] = routeEventToWork(requested);
    await run.handle(work.payload, delivery(1));
    const [, succeeded] = await store.readStream(`info-${message.jobId}`);
    const charged = (await store.readStream(`account-${message.accountId}`)).find(
      (event) => event.type === 'LookupCharged',
    );
    for (const event of [succeeded, charged]) {
      assert.equal(event?.metadata.causationId, requested.id);
      assert.equal(event?.metadata.correlationId, requested.metadata.correlationId);
    }
  });

  it('releases a reservation whose job stream was never written, after the grace period; never one whose job exists', async () => {
    const { accounts, jobs, message, usage } = await setUp([video]);
    const orphanId = randomUUID();
    const reservedAt = new Date(nowMs).toISOString();
    await accounts.handle(message.accountId, {
      type: 'ReserveLookup',
      data: { lookupId: orphanId, feature: 'info', units: 1, subject: 'u', now: reservedAt },
    });
    const steps = lookupJobSteps(INFO_JOB, jobs, lookUpVideoInfo(scriptedExtractor([video])));
    const release = new ReleaseOrphanedLookup(accounts, clock, {
      graceMs: 60_000,
      listingTimeoutMs: 300_000,
      jobs: { info: steps, client_download: steps },
    });
    assert.deepEqual(await release.handle({ ...message, jobId: orphanId, occurredAt: reservedAt }), {
      kind: 'retry',
      afterMs: 60_000,
    });
    nowMs += 60_000;
    assert.deepEqual(await release.handle({ ...message, jobId: orphanId, occurredAt: reservedAt }), { kind: 'done' });
    assert.deepEqual(await release.handle(message), { kind: 'done' });
    assert.deepEqual(await usage(), { used: 0, pending: 1 }, 'only the orphan was released');
  });
});
