import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AccountCommandHandler } from '../../../../application/accounts/account-commands.js';
import { CommandHandler } from '../../../../application/command-handler.js';
import type { DownloadJobCommandHandler } from '../../../../application/downloads/download-job-commands.js';
import { SubmitDownload, type SubmitDownloadOutput } from '../../../../application/downloads/submit-download.js';
import type { VideoLookup } from '../../../../application/downloads/video-lookup.js';
import type { VideoMetadata } from '../../../../application/ports/extractor/video-prober.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../../domain/account/decider.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../../domain/download-job/decider.js';
import { CreditLimitReachedError } from '../../../../domain/errors.js';
import { DEFAULT_PLAN_CATALOG } from '../../../../infrastructure/config/plan-catalog.js';
import { InMemoryEventStore } from '../../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { RandomIds } from '../../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../../infrastructure/system/system-clock.js';

/** Calls that wait until the test lets them go on (or fails them), in the order they came. */
class Held<T> {
  readonly calls: Array<{ go: () => void; fail: (error: Error) => void }> = [];
  holding = false;
  /** Every call, held or not. */
  count = 0;

  /** `value` at once unless holding; then once the test lets the call go on. */
  pass(value: T): Promise<T> {
    this.count += 1;
    if (!this.holding) return Promise.resolve(value);
    return new Promise<T>((resolve, reject) => this.calls.push({ go: () => resolve(value), fail: reject }));
  }

  /** The `count`-th held call, once it has come. */
  async next(count: number): Promise<{ go: () => void; fail: (error: Error) => void }> {
    await until(() => this.calls.length >= count);
    const call = this.calls[count - 1];
    assert.ok(call !== undefined);
    return call;
  }
}

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    assert.ok(Date.now() < deadline, 'timed out');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const video: VideoMetadata = { id: 'abc', title: 'A clip', duration: 30, liveStatus: null, tags: [] };

/**
 * Admissions of one account interleaved at the awaits of `SubmitDownload`: the account's load, the job's load (a
 * repeat) and the video's lookup, each held until the test lets it go on. The plan allows `downloads` downloads, so
 * a submission is refused when that many are pending or being admitted.
 */
async function setUp(downloads: number) {
  const store = new InMemoryEventStore();
  const ids = new RandomIds();
  const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids);
  const jobs = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, ids);
  const accountId = randomUUID();
  const plan = {
    ...DEFAULT_PLAN_CATALOG.starter,
    allowances: { ...DEFAULT_PLAN_CATALOG.starter.allowances, download_count: downloads },
  };
  await accounts.handle(accountId, {
    type: 'OpenAccount',
    data: { accountId, name: 'A', email: 'a@example.com', plan, addOns: [], now: new Date().toISOString() },
  });

  const accountLoads = new Held<Awaited<ReturnType<AccountCommandHandler['load']>>>();
  const jobLoads = new Held<Awaited<ReturnType<DownloadJobCommandHandler['load']>>>();
  const lookups = new Held<VideoMetadata>();
  const heldAccounts = {
    load: async (id: string) => accountLoads.pass(await accounts.load(id)),
    handle: accounts.handle.bind(accounts),
  } as unknown as AccountCommandHandler;
  const heldJobs = {
    load: async (id: string) => jobLoads.pass(await jobs.load(id)),
    handle: jobs.handle.bind(jobs),
  } as unknown as DownloadJobCommandHandler;
  const videos = { lookup: () => lookups.pass(video) } as unknown as VideoLookup;
  const service = new SubmitDownload(heldAccounts, heldJobs, videos, ids, new SystemClock());
  const submit = (idempotencyKey?: string): Promise<SubmitDownloadOutput> =>
    service.execute({
      accountId,
      url: 'https://youtu.be/abc',
      videoUrl: 'https://www.youtube.com/watch?v=abc',
      format: 'audio',
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
  return { submit, accountLoads, jobLoads, lookups };
}

describe('POST /download admissions of one account under way together count against its limits', () => {
  it('counts an admission that started while a slower submission, which had seen an earlier one, was loading the account', async () => {
    const { submit, accountLoads, lookups } = await setUp(1);
    lookups.holding = true;
    const first = submit();
    const firstLookup = await lookups.next(1);

    // A second submission loads the account while the first is being admitted, and is held there.
    accountLoads.holding = true;
    const second = submit();
    const secondLoad = await accountLoads.next(1);
    accountLoads.holding = false;

    // The first ends (its video cannot be looked up), and a third starts and is being admitted.
    firstLookup.fail(new Error('platform unreachable'));
    await assert.rejects(first, /video lookup failed/);
    const third = submit();
    const thirdLookup = await lookups.next(2);

    // The second goes on: the third holds the account's only download, so the second is refused before its lookup.
    lookups.holding = false;
    secondLoad.go();
    await assert.rejects(second, CreditLimitReachedError);
    assert.equal(lookups.count, 2, 'the refused submission looked nothing up');
    thirdLookup.go();
    assert.equal((await third).status, 'IN_QUEUE');
  });

  it('keeps the admissions of others counted when a repeat ends, whatever became of the set it saw', async () => {
    const { submit, jobLoads, lookups } = await setUp(2);
    const key = randomUUID();
    const admitted = await submit(key);

    // A repeat of that submission is answered from its job, whose load is held.
    jobLoads.holding = true;
    const repeat = submit(key);
    const repeatLoad = await jobLoads.next(1);
    jobLoads.holding = false;

    // Another submission is admitted and ends meanwhile; a further one is being admitted (the plan's second download).
    lookups.holding = true;
    const failing = submit();
    (await lookups.next(1)).fail(new Error('platform unreachable'));
    await assert.rejects(failing, /video lookup failed/);
    const underWay = submit();
    const underWayLookup = await lookups.next(2);

    // The repeat ends: the submission under way still counts, so one more is refused.
    repeatLoad.go();
    assert.equal((await repeat).jobId, admitted.jobId);
    lookups.holding = false;
    await assert.rejects(submit(), CreditLimitReachedError);
    assert.equal(lookups.count, 3, 'the refused submission looked nothing up');
    underWayLookup.go();
    assert.equal((await underWay).status, 'IN_QUEUE');
  });
});
