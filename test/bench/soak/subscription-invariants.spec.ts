import assert from 'node:assert/strict';
import { checkCounts, checkSubscriptions, submittedJobs } from '../../../bench/soak/subscription-invariants.js';
import type { SubscriptionHistory } from '../../../bench/soak/tracked-subscription.js';

const at = '2026-03-01T00:00:00.000Z';
const event = (type: string, data: Record<string, unknown> = {}) => ({ type, data, recordedAt: at });
const submitted = (videoId: string, jobId: string) => event('SubscriptionVideoSubmitted', { videoId, jobId });
const history = (...events: SubscriptionHistory['events']): SubscriptionHistory => ({
  subscriptionId: 'sub-1',
  accountId: 'acc-1',
  events,
});

describe('soak invariants of subscriptions', () => {
  it('holds for a subscription that took each video once, with one put back to wait and taken again', () => {
    const fine = history(
      submitted('v1', 'j1'),
      submitted('v2', 'j2'),
      event('SubscriptionVideoDeferred', { videoId: 'v2', jobId: 'j2' }),
      submitted('v2', 'j3'),
      event('SubscriptionPaused'),
      event('SubscriptionResumed'),
      submitted('v4', 'j4'),
      event('SubscriptionDeleted'),
      event('WebhookAttemptStarted'),
    );
    assert.deepEqual(checkSubscriptions([fine]), []);
    assert.deepEqual(
      submittedJobs(fine).map((job) => job.jobId),
      ['j1', 'j3', 'j4'],
    );
  });

  it('breaks on a video with two jobs', () => {
    const twice = history(submitted('v1', 'j1'), submitted('v1', 'j2'));
    assert.match(checkSubscriptions([twice]).join('\n'), /submitted video v1 2 times: j1, j2/);
  });

  it('breaks on a submission while paused, and on anything but its webhook after deletion', () => {
    const paused = history(event('SubscriptionPaused'), submitted('v1', 'j1'));
    assert.match(checkSubscriptions([paused]).join('\n'), /video v1 submitted while paused/);
    const deleted = history(event('SubscriptionDeleted'), event('SubscriptionCheckStarted', { checkId: 'c' }));
    assert.match(checkSubscriptions([deleted]).join('\n'), /SubscriptionCheckStarted after it was deleted/);
  });

  it('counts the checks that listed, and those started and never completed (which may have been charged)', () => {
    const checks = history(
      event('SubscriptionCheckStarted', { checkId: 'c1' }),
      event('SubscriptionCheckCompleted', { checkId: 'c1' }),
      event('SubscriptionCheckStarted', { checkId: 'c2' }),
      event('SubscriptionCheckFailed', { checkId: 'c2' }),
      event('SubscriptionCheckStarted', { checkId: 'c3' }),
    );
    assert.deepEqual(checkCounts(checks), { completed: 1, unended: 2 });
  });
});
