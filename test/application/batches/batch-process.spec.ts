import assert from 'node:assert/strict';
import { AddOnNotEnabledError } from '../../../domain/errors.js';
import { batchHarness, videoUrl } from './batch-harness.js';

type Harness = Awaited<ReturnType<typeof batchHarness>>;

const urls = (count: number) => Array.from({ length: count }, (_, index) => videoUrl(index));

function submitUrls(h: Harness, count: number) {
  return h.submitBatch.execute({
    accountId: h.accountId,
    source: { kind: 'urls', urls: urls(count) },
    maxVideos: 500,
    format: '720',
    language: null,
    webhookUrl: null,
    batchWebhookUrl: null,
  });
}

async function admittedJobs(h: Harness, batchId: string): Promise<string[]> {
  const events = await h.store.readStream(`batch-${batchId}`);
  return events.filter((event) => event.type === 'BatchVideoAdmitted').map((event) => event.data.jobId as string);
}

async function finished(h: Harness, batchId: string) {
  const events = await h.store.readStream(`batch-${batchId}`);
  return events.filter((event) => event.type === 'BatchFinished').map((event) => event.data);
}

describe('The batch process: each video an ordinary download job, admitted as pending slots free up', () => {
  it('gives each video of a list of URLs one queued job, and finishes the batch completed once every job completed', async () => {
    const h = await batchHarness();
    const { batchId } = await submitUrls(h, 3);
    await h.drain();
    const jobIds = await admittedJobs(h, batchId);
    assert.equal(jobIds.length, 3);
    for (const jobId of jobIds) assert.equal((await h.jobs.load(jobId)).state.status, 'IN_QUEUE');
    assert.equal((await h.accounts.load(h.accountId)).state.pendingJobs.length, 3);
    for (const jobId of jobIds) await h.endJob(jobId, 'completed');
    await h.drain();
    await h.drain();
    const finishes = await finished(h, batchId);
    assert.equal(finishes.length, 1);
    assert.equal(finishes[0]?.status, 'completed');
  });

  it('admits no more than the 100-pending limit; the rest waits without counting, and each freed slot admits the next video, never one twice', async () => {
    const h = await batchHarness();
    const { batchId } = await submitUrls(h, 130);
    await h.drain();
    const first = await admittedJobs(h, batchId);
    assert.equal(first.length, 100);
    assert.equal((await h.accounts.load(h.accountId)).state.pendingJobs.length, 100);
    for (const jobId of first.slice(0, 10)) await h.endJob(jobId, 'completed');
    await h.drain();
    const second = await admittedJobs(h, batchId);
    assert.equal(second.length, 110);
    assert.equal((await h.accounts.load(h.accountId)).state.pendingJobs.length, 100);
    const admittedUrls = (await h.store.readStream(`batch-${batchId}`))
      .filter((event) => event.type === 'BatchVideoAdmitted')
      .map((event) => event.data.videoUrl);
    assert.equal(new Set(admittedUrls).size, admittedUrls.length);
  });

  it('refuses the remaining videos with the contract’s message once the credit runs out, and ends the batch partial', async () => {
    const h = await batchHarness({ downloads: 5 });
    const { batchId } = await submitUrls(h, 8);
    await h.drain();
    const jobIds = [];
    for (const jobId of await admittedJobs(h, batchId))
      if ((await h.jobs.load(jobId)).state.status !== 'NONE') jobIds.push(jobId);
    assert.equal(jobIds.length, 5);
    const refusals = (await h.store.readStream(`batch-${batchId}`)).filter(
      (event) => event.type === 'BatchVideoRefused',
    );
    assert.deepEqual(
      refusals.map((event) => [event.data.code, event.data.message]),
      Array.from({ length: 3 }, () => ['CREDIT_LIMIT_REACHED', 'Credit limit reached']),
    );
    for (const jobId of jobIds) await h.endJob(jobId, 'completed');
    await h.drain();
    const finishes = await finished(h, batchId);
    assert.equal(finishes.length, 1);
    assert.equal(finishes[0]?.status, 'partial');
    assert.deepEqual(finishes[0]?.counts, { completed: 5, failed: 0, cancelled: 0, refused: 3 });
  });

  it('refuses every video with the account’s refusal once it is suspended, never stalling the process', async () => {
    const h = await batchHarness();
    const { batchId } = await submitUrls(h, 3);
    const now = new Date().toISOString();
    await h.accounts.handle(h.accountId, { type: 'SuspendAccount', data: { reason: 'unpaid', now } });
    await h.drain();
    const refusals = (await h.store.readStream(`batch-${batchId}`)).filter(
      (event) => event.type === 'BatchVideoRefused',
    );
    assert.deepEqual(
      refusals.map((event) => event.data.code),
      ['ACCOUNT_REFUSED', 'ACCOUNT_REFUSED', 'ACCOUNT_REFUSED'],
    );
    assert.match(String(refusals[0]?.data.message), /suspended: unpaid/);
    // No video got a job: the batch failed as a whole.
    assert.equal((await finished(h, batchId))[0]?.status, 'failed');
  });

  it('lists a playlist as /list-channel does, with the channel_list add-on, charging 1 unit per 10 items', async () => {
    const without = await batchHarness();
    const playlist = {
      source: { kind: 'playlist' as const, url: 'https://www.youtube.com/playlist?list=PL1' },
      maxVideos: 50,
      format: '720' as const,
      language: null,
      webhookUrl: null,
      batchWebhookUrl: null,
    };
    await assert.rejects(
      without.submitBatch.execute({ accountId: without.accountId, ...playlist }),
      AddOnNotEnabledError,
    );

    const h = await batchHarness({ addOns: ['channel_list'] });
    const { batchId } = await h.submitBatch.execute({ accountId: h.accountId, ...playlist });
    await h.drain();
    assert.equal((await admittedJobs(h, batchId)).length, 12);
    const account = (await h.accounts.load(h.accountId)).state;
    assert.equal(account.usage.channel_list, 2);
    const listed = (await h.store.readStream(`batch-${batchId}`)).find((event) => event.type === 'BatchListed');
    assert.equal(listed?.data.listingUnits, 2);
  });

  it('cancels: the running jobs are stopped as a client’s cancel would, the waiting videos withdrawn, and the batch ends cancelled', async () => {
    const h = await batchHarness();
    const { batchId } = await submitUrls(h, 103);
    await h.drain();
    const jobIds = await admittedJobs(h, batchId);
    await h.batches.handle(batchId, { type: 'CancelBatch', data: { batchId, now: new Date().toISOString() } });
    await h.drain();
    for (const jobId of jobIds) assert.equal((await h.jobs.load(jobId)).state.status, 'FAILED');
    await h.drain();
    const finishes = await finished(h, batchId);
    assert.equal(finishes.length, 1);
    assert.equal(finishes[0]?.status, 'cancelled');
    assert.deepEqual(finishes[0]?.counts, { completed: 0, failed: 0, cancelled: 103, refused: 0 });
  });

  it('retries: the failed videos get new jobs, and the batch finishes again', async () => {
    const h = await batchHarness();
    const { batchId } = await submitUrls(h, 2);
    await h.drain();
    const [ok, broken] = await admittedJobs(h, batchId);
    await h.endJob(ok as string, 'completed');
    await h.endJob(broken as string, 'failed');
    await h.drain();
    assert.equal((await finished(h, batchId))[0]?.status, 'partial');
    await h.batches.handle(batchId, { type: 'RetryBatch', data: { batchId, now: new Date().toISOString() } });
    await h.drain();
    const jobIds = await admittedJobs(h, batchId);
    assert.equal(jobIds.length, 3);
    await h.endJob(jobIds[2] as string, 'completed');
    await h.drain();
    const finishes = await finished(h, batchId);
    assert.deepEqual(
      finishes.map((finish) => finish.status),
      ['partial', 'completed'],
    );
  });
});
