import assert from 'node:assert/strict';
import { CommandHandler } from '../../../application/command-handler.js';
import type { WebhookRequest, WebhookResponse } from '../../../application/ports/webhook-sender.js';
import { subscriptionCorrelation } from '../../../application/subscriptions/subscription-commands.js';
import { subscriptionPausedBody } from '../../../application/subscriptions/subscription-paused-body.js';
import { DeliverStreamWebhook } from '../../../application/webhooks/deliver-stream-webhook.js';
import { SUBSCRIPTION_CATEGORY } from '../../../domain/subscription/decider.js';
import { subscriptionWebhookDecider } from '../../../domain/subscription/paused-webhook.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../infrastructure/system/system-clock.js';
import { subscriptionHarness, uploadUrl } from './subscription-harness.js';

describe('subscription process: checks, submissions and what a stop in between leaves', () => {
  it('takes none of the uploads there at first, then exactly the new ones as ordinary jobs, each once however often it runs', async () => {
    const h = await subscriptionHarness();
    const { subscriptionId } = await h.subscribe();
    assert.equal(await h.check.run(subscriptionId), true);
    await h.drain();
    assert.deepEqual(await h.jobsOf(subscriptionId), []);
    h.upload(3);
    await h.subscriptions.handle(subscriptionId, { type: 'RequestCheck', data: { subscriptionId, now: h.now() } });
    assert.equal(await h.check.run(subscriptionId), true);
    await h.drain();
    await h.drain();
    assert.deepEqual(await h.jobsOf(subscriptionId), [uploadUrl(4), uploadUrl(5), uploadUrl(6)]);
    const { state } = await h.accounts.load(h.accountId);
    assert.equal(state.pendingJobs.length, 3, 'each job reserved once');
  });

  it('a check not due does not run, and a second scheduler asking at once runs nothing more', async () => {
    const h = await subscriptionHarness();
    const { subscriptionId } = await h.subscribe();
    const [first, second] = await Promise.all([h.check.run(subscriptionId), h.check.run(subscriptionId)]);
    assert.deepEqual([first, second].sort(), [false, true]);
    assert.equal(await h.check.run(subscriptionId), false, 'the next check is an hour away');
  });

  it('writes the job of a video submitted by a process that stopped before writing it', async () => {
    const h = await subscriptionHarness();
    const { subscriptionId } = await h.subscribe();
    await h.check.run(subscriptionId);
    await h.drain();
    h.upload(2);
    await h.subscriptions.handle(subscriptionId, { type: 'RequestCheck', data: { subscriptionId, now: h.now() } });
    await h.check.run(subscriptionId);
    // What a process does before it writes the jobs, then stops: the ids are chosen and recorded, no job written.
    await h.subscriptions.handle(subscriptionId, {
      type: 'SubmitVideos',
      data: { subscriptionId, freeSlots: 100, jobIds: ['job-a', 'job-b'], now: h.now() },
    });
    assert.deepEqual(await h.jobsOf(subscriptionId), []);
    await h.drain();
    assert.deepEqual(await h.jobsOf(subscriptionId), [uploadUrl(4), uploadUrl(5)]);
  });

  it('out of credit, the rest of the videos wait, the subscription pauses itself and its subscription.paused is scheduled', async () => {
    const h = await subscriptionHarness({ downloads: 2 });
    const { subscriptionId } = await h.subscribe('https://receiver.example/hook');
    await h.check.run(subscriptionId);
    await h.drain();
    h.upload(3);
    await h.subscriptions.handle(subscriptionId, { type: 'RequestCheck', data: { subscriptionId, now: h.now() } });
    await h.check.run(subscriptionId);
    await h.drain();
    assert.equal((await h.jobsOf(subscriptionId)).length, 2);
    const { state } = await h.subscriptions.load(subscriptionId);
    assert.equal(state.status, 'paused');
    assert.ok(state.status === 'paused' && state.pause?.pausedBy === 'subscription');
    assert.equal(state.status === 'paused' ? state.pause?.reason : null, 'Credit limit reached');
    assert.equal(state.status === 'paused' ? state.queue.length : 0, 1, 'the third video waits');
    assert.deepEqual(h.scheduled, [subscriptionId]);
    assert.equal(await h.check.run(subscriptionId), false, 'a paused subscription checks nothing');

    const sent: WebhookRequest[] = [];
    const deliver = new DeliverStreamWebhook({
      deliveries: new CommandHandler(h.store, subscriptionWebhookDecider, SUBSCRIPTION_CATEGORY, new RandomIds()),
      body: subscriptionPausedBody(h.subscriptions),
      correlation: subscriptionCorrelation,
      sender: {
        send: async (request): Promise<WebhookResponse> => {
          sent.push(request);
          return { kind: 'response', statusCode: 200, durationMs: 1 };
        },
      },
      keys: { currentKey: async () => 'key' },
      clock: new SystemClock(),
      options: { timeoutMs: 15_000, retryDelaysMs: [30_000], workerId: 'w' },
    });
    assert.equal(await deliver.step(subscriptionId), null);
    assert.equal(await deliver.step(subscriptionId), null);
    assert.equal(sent.length, 1, 'sent once, acknowledged');
    assert.equal(sent[0]?.event, 'subscription.paused');
    assert.equal(sent[0]?.url, 'https://receiver.example/hook');
    const body = JSON.parse(sent[0]?.body ?? '{}');
    assert.deepEqual(
      [body.subscriptionId, body.status, body.reason],
      [subscriptionId, 'paused', 'Credit limit reached'],
    );
  });
});
