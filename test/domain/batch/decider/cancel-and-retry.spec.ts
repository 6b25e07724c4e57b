import { batchDecider } from '../../../../domain/batch/decider.js';
import type { BatchEvent } from '../../../../domain/batch/events.js';
import { InvalidTransitionError } from '../../../../domain/errors.js';
import { deciderSpecification } from '../../../support/decider-specification.js';
import {
  accountId,
  admit,
  admitted,
  allAdmitted,
  batchId,
  finished,
  listed,
  listedVideos,
  refusedForCredit,
  requested,
  settle,
  settled,
  t1,
  t2,
  video,
} from '../batch-examples.js';

const spec = deciderSpecification(batchDecider);
const cancel = { type: 'CancelBatch' as const, data: { batchId, now: t2 } };
const retry = { type: 'RetryBatch' as const, data: { batchId, now: t2 } };
const cancelRequested = (withdrawnVideoUrls: string[], runningJobIds: string[]): BatchEvent => ({
  type: 'BatchCancelRequested',
  data: { batchId, accountId, withdrawnVideoUrls, runningJobIds, requestedAt: t2 },
});
const cancelled: BatchEvent = { type: 'BatchCancelled', data: { batchId, accountId, cancelledAt: t2 } };
const retryRequested = (videoUrls: string[]): BatchEvent => ({
  type: 'BatchRetryRequested',
  data: { batchId, accountId, videoUrls, requestedAt: t2 },
});

describe('batch decider: cancel and retry', () => {
  it('cancelling withdraws the waiting videos and names the running jobs; the last of them to end finishes it cancelled', () => {
    spec
      .given([requested(), listed(3), admitted(1)])
      .when(cancel)
      .then([cancelRequested([video(2), video(3)], ['job-1'])]);
    spec
      .given([requested(), listed(3), admitted(1), cancelRequested([video(2), video(3)], ['job-1'])])
      .when(settle('job-1', 'cancelled'))
      .then([settled(1, 'cancelled'), cancelled, finished('cancelled', { cancelled: 3 })]);
  });

  it('a batch with no job running is cancelled at once, and admits nothing after', () => {
    const withdrawn = cancelRequested([video(1), video(2)], []);
    spec
      .given([requested(), listed(2)])
      .when(cancel)
      .then([withdrawn, cancelled, finished('cancelled', { cancelled: 2 })]);
    spec
      .given([requested(), listed(2), withdrawn])
      .when(admit(2, ['job-1', 'job-2']))
      .thenNothingHappened();
  });

  it('cancelled before its listing, the batch finishes when the listing comes, every video withdrawn', () => {
    spec
      .given([requested(), cancelRequested([], [])])
      .when({ type: 'RecordListing', data: { batchId, videos: listedVideos(2), listingUnits: 1, now: t2 } })
      .then([
        { type: 'BatchListed', data: { batchId, accountId, videos: listedVideos(2), listingUnits: 1, listedAt: t2 } },
        cancelled,
        finished('cancelled', { cancelled: 2 }),
      ]);
  });

  it('cancelling a finished batch, or one already cancelled, changes nothing', () => {
    spec
      .given([...allAdmitted(1), settled(1), finished('completed', { completed: 1 })])
      .when(cancel)
      .thenNothingHappened();
    spec
      .given([...allAdmitted(1), cancelRequested([], ['job-1'])])
      .when(cancel)
      .thenNothingHappened();
  });

  it('retrying puts the failed videos and those refused for credit back to wait, and they get new jobs', () => {
    const ended = [
      ...allAdmitted(3),
      settled(1),
      settled(2, 'failed'),
      refusedForCredit(3, 'job-3'),
      finished('partial', { completed: 1, failed: 1, refused: 1 }),
    ];
    spec
      .given(ended)
      .when(retry)
      .then([retryRequested([video(2), video(3)])]);
    spec
      .given([...ended, retryRequested([video(2), video(3)])])
      .when(admit(5, ['job-2b', 'job-3b']))
      .then([admitted(2, 'job-2b', t1), admitted(3, 'job-3b', t1)]);
  });

  it('a retried batch finishes again, as round 2, and the late news of a replaced job changes nothing', () => {
    const reopened = [
      ...allAdmitted(2),
      settled(1),
      settled(2, 'failed'),
      finished('partial', { completed: 1, failed: 1 }),
      retryRequested([video(2)]),
      admitted(2, 'job-2b'),
    ];
    spec.given(reopened).when(settle('job-2', 'failed')).thenNothingHappened();
    spec
      .given(reopened)
      .when(settle('job-2b'))
      .then([settled(2, 'completed', 'job-2b'), finished('completed', { completed: 2 }, 2)]);
  });

  it('refuses a retry with nothing failed, and of a cancelled batch', () => {
    spec
      .given([...allAdmitted(1), settled(1), finished('completed', { completed: 1 })])
      .when(retry)
      .thenThrows(InvalidTransitionError);
    spec
      .given([...allAdmitted(1), cancelRequested([], ['job-1']), settled(1, 'failed')])
      .when(retry)
      .thenThrows(InvalidTransitionError);
  });
});
