import { nextCheckAt } from '../../../../domain/subscription/check-schedule.js';
import { subscriptionDecider } from '../../../../domain/subscription/decider.js';
import type { SubscriptionEvent } from '../../../../domain/subscription/events.js';
import { deciderSpecification } from '../../../support/decider-specification.js';
import {
  accountId,
  completeCheck,
  completed,
  created,
  later,
  paused,
  scheduled,
  scheduledAfter,
  startCheck,
  started,
  subscriptionId,
  t0,
  t1,
  t2,
  upload,
  uploads,
  watching,
} from '../subscription-examples.js';

const spec = deciderSpecification(subscriptionDecider);
const of = { subscriptionId, accountId };
const due = () => watching().at(-1)?.data as { checkAt: string };
const deleted: SubscriptionEvent = { type: 'SubscriptionDeleted', data: { ...of, deletedAt: t2 } };

describe('subscription decider: checks', () => {
  it('starts a check once it is due, not before', () => {
    const { checkAt } = due();
    spec
      .given(watching())
      .when(startCheck('check-2', checkAt))
      .then([started('check-2', checkAt)]);
    const early = new Date(Date.parse(checkAt) - 1).toISOString();
    spec.given(watching()).when(startCheck('check-2', early)).thenNothingHappened();
  });

  it('a paused or deleted subscription starts no check', () => {
    const { checkAt } = due();
    spec
      .given([...watching(), paused()])
      .when(startCheck('check-2', checkAt))
      .thenNothingHappened();
    spec
      .given([...watching(), deleted])
      .when(startCheck('check-2', checkAt))
      .thenNothingHappened();
  });

  it('while a check is under way another does not start, until the one under way has outlived its bound', () => {
    const { checkAt } = due();
    const underWay = [...watching(), started('check-2', checkAt)];
    const withinBound = new Date(Date.parse(checkAt) + 299_999).toISOString();
    const pastBound = new Date(Date.parse(checkAt) + 300_000).toISOString();
    spec.given(underWay).when(startCheck('check-2', pastBound)).thenNothingHappened();
    spec.given(underWay).when(startCheck('check-3', withinBound)).thenNothingHappened();
    spec
      .given(underWay)
      .when(startCheck('check-3', pastBound))
      .then([started('check-3', pastBound)]);
  });

  it('the first check of a subscription that starts new sees the listed videos and takes none of them', () => {
    spec
      .given([created(), scheduled(t0), started('check-1')])
      .when(completeCheck('check-1', uploads(3)))
      .then([completed('check-1', uploads(3), []), scheduledAfter(t2)]);
  });

  it('the first check of latest:N also takes the N newest', () => {
    const latestTwo = created(60, { kind: 'latest', count: 2 });
    spec
      .given([latestTwo, scheduled(t0), started('check-1')])
      .when(completeCheck('check-1', uploads(3)))
      .then([completed('check-1', uploads(3), uploads(3, 2)), scheduledAfter(t2)]);
  });

  it('a later check takes exactly the videos no listing showed before, each once', () => {
    const { checkAt } = due();
    const at = later(90);
    spec
      .given([...watching(), started('check-2', checkAt)])
      .when(completeCheck('check-2', [upload(5), upload(4), upload(5), ...uploads(3)], at))
      .then([completed('check-2', uploads(5, 4), uploads(5, 4), 1, at), scheduledAfter(at)]);
  });

  it('the late result of a check taken over, or of none under way, changes nothing', () => {
    const { checkAt } = due();
    spec
      .given([...watching(), started('check-2', checkAt), started('check-3', checkAt)])
      .when(completeCheck('check-2', uploads(5)))
      .thenNothingHappened();
    spec
      .given(watching())
      .when(completeCheck('check-1', uploads(5)))
      .thenNothingHappened();
  });

  it('a check that ends after a pause keeps what it found for the resumption and schedules nothing; after a delete, nothing', () => {
    const { checkAt } = due();
    spec
      .given([...watching(), started('check-2', checkAt), paused()])
      .when(completeCheck('check-2', uploads(4)))
      .then([completed('check-2', [upload(4)], [upload(4)])]);
    spec
      .given([...watching(), started('check-2', checkAt), deleted])
      .when(completeCheck('check-2', uploads(4)))
      .thenNothingHappened();
  });

  it('a failed check is retried at the next regular check, or once the back-off asked for is over', () => {
    const fail = (notBefore: string | null) => ({
      type: 'FailCheck' as const,
      data: {
        subscriptionId,
        checkId: 'check-1',
        errorCode: 'NETWORK_ERROR' as const,
        reason: 'bot check',
        notBefore,
        now: t2,
      },
    });
    const failed: SubscriptionEvent = {
      type: 'SubscriptionCheckFailed',
      data: { ...of, checkId: 'check-1', errorCode: 'NETWORK_ERROR', reason: 'bot check', failedAt: t2 },
    };
    const underWay = [created(), scheduled(t0), started('check-1', t1)];
    spec
      .given(underWay)
      .when(fail(null))
      .then([failed, scheduledAfter(t2)]);
    spec
      .given(underWay)
      .when(fail(later(150)))
      .then([
        failed,
        scheduled(nextCheckAt(subscriptionId, 60, new Date(Date.parse(later(150)) - 1).toISOString()), t2),
      ]);
  });
});
