import { InvalidTransitionError, NotFoundError } from '../../../../domain/errors.js';
import type { SubmissionRefusalCode, SubscriptionEvent } from '../../../../domain/subscription/events.js';
import { subscriptionDecider } from '../../../../domain/subscription/decider.js';
import { deciderSpecification } from '../../../support/decider-specification.js';
import {
  accountId,
  completeCheck,
  completed,
  deferred,
  later,
  paused,
  scheduledAfter,
  started,
  submit,
  submitted,
  subscriptionId,
  t2,
  upload,
  uploads,
  watching,
} from '../subscription-examples.js';

const spec = deciderSpecification(subscriptionDecider);
const of = { subscriptionId, accountId };
/** Watching uploads 1-3, a second check found 4-6, newest first. */
const foundThree = (): SubscriptionEvent[] => [
  ...watching(),
  started('check-2', later(60)),
  completed('check-2', uploads(6, 4), uploads(6, 4), 1, later(61)),
  scheduledAfter(later(61)),
];
const refuse = (n: number, code: SubmissionRefusalCode, message: string) => ({
  type: 'RefuseSubmission' as const,
  data: { subscriptionId, videoId: `v${n}`, jobId: `job-${n}`, code, message, now: t2 },
});

describe('subscription decider: submissions', () => {
  it('submits the videos found in order, one per free slot; those beyond the free slots wait for the next check', () => {
    spec
      .given(foundThree())
      .when(submit(2, ['job-6', 'job-5', 'job-x']))
      .then([submitted(6, 'job-6'), submitted(5, 'job-5'), deferred(4)]);
    spec
      .given(foundThree())
      .when(submit(0, ['job-6']))
      .then([deferred(6), deferred(5), deferred(4)]);
  });

  it('a video that waits is not submitted before the next check completes, and then first', () => {
    const waiting = [...foundThree(), submitted(6, 'job-6'), submitted(5, 'job-5'), deferred(4)];
    spec
      .given(waiting)
      .when(submit(5, ['job-4']))
      .thenNothingHappened();
    const nextCheck = [
      ...waiting,
      started('check-3', later(120)),
      completed('check-3', [upload(7)], [upload(7)], 1, later(121)),
    ];
    spec
      .given(nextCheck)
      .when(submit(5, ['job-4', 'job-7']))
      .then([submitted(4, 'job-4'), submitted(7, 'job-7')]);
  });

  it('never submits a video twice: a later check that shows it again finds nothing, and it leaves the queue once submitted', () => {
    const all = [...foundThree(), submitted(6), submitted(5), submitted(4)];
    spec
      .given(all)
      .when(submit(5, ['job-9']))
      .thenNothingHappened();
    spec
      .given([...all, started('check-3', later(120))])
      .when(completeCheck('check-3', uploads(6), later(121)))
      .then([completed('check-3', [], [], 1, later(121)), scheduledAfter(later(121))]);
  });

  it('a paused or deleted subscription submits nothing', () => {
    spec
      .given([...foundThree(), paused()])
      .when(submit(5, ['job-6', 'job-5', 'job-4']))
      .thenNothingHappened();
    spec
      .given([...foundThree(), { type: 'SubscriptionDeleted', data: { ...of, deletedAt: t2 } }])
      .when(submit(5, ['job-6', 'job-5', 'job-4']))
      .thenNothingHappened();
  });

  it('refuses a job id the subscription already gave, or one given twice', () => {
    spec
      .given([...foundThree(), submitted(6, 'job-6')])
      .when(submit(2, ['job-6']))
      .thenThrows(InvalidTransitionError);
    spec
      .given(foundThree())
      .when(submit(2, ['job-1', 'job-1']))
      .thenThrows(InvalidTransitionError);
  });

  it('a submission refused at the pending limit puts the video back to wait for the next check', () => {
    spec
      .given([...foundThree(), submitted(6)])
      .when(refuse(6, 'PENDING_LIMIT', 'The account already has 100 downloads queued or in progress'))
      .then([deferred(6, 'job-6')]);
  });

  it('out of credit, the video waits and the subscription pauses itself with the reason', () => {
    spec
      .given([...foundThree(), submitted(6)])
      .when(refuse(6, 'CREDIT_LIMIT_REACHED', 'Credit limit reached'))
      .then([deferred(6, 'job-6'), paused('subscription', 'Credit limit reached')]);
    spec
      .given([...foundThree(), submitted(6), paused()])
      .when(refuse(6, 'CREDIT_LIMIT_REACHED', 'Credit limit reached'))
      .then([deferred(6, 'job-6')]);
  });

  it('with the account suspended or closed, the video waits and the subscription pauses itself with the refusal', () => {
    const suspended = 'This account is suspended: unpaid. Contact support to have it reactivated';
    spec
      .given([...foundThree(), submitted(6)])
      .when(refuse(6, 'ACCOUNT_REFUSED', suspended))
      .then([deferred(6, 'job-6'), paused('subscription', suspended)]);
  });

  it('any other refusal is for good; a refusal repeated changes nothing', () => {
    const refused: SubscriptionEvent = {
      type: 'SubscriptionVideoRefused',
      data: { ...of, videoId: 'v6', jobId: 'job-6', code: 'PRIVATE_VIDEO', message: 'Private video', refusedAt: t2 },
    };
    spec
      .given([...foundThree(), submitted(6)])
      .when(refuse(6, 'PRIVATE_VIDEO', 'Private video'))
      .then([refused]);
    spec
      .given([...foundThree(), submitted(6), refused])
      .when(refuse(6, 'PRIVATE_VIDEO', 'Private video'))
      .thenNothingHappened();
    spec
      .given([...foundThree(), submitted(6), deferred(6, 'job-6')])
      .when(refuse(6, 'PENDING_LIMIT', 'limit'))
      .thenNothingHappened();
  });

  it('refuses a refusal of a video the subscription never saw', () => {
    spec
      .given(foundThree())
      .when(refuse(9, 'PRIVATE_VIDEO', 'Private video'))
      .thenThrows(NotFoundError);
  });
});
