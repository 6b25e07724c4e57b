import assert from 'node:assert/strict';
import { InvalidTransitionError, NotFoundError, RuleViolationError } from '../../../../domain/errors.js';
import type { SubscriptionEvent } from '../../../../domain/subscription/events.js';
import { subscriptionDecider } from '../../../../domain/subscription/decider.js';
import { deciderSpecification } from '../../../support/decider-specification.js';
import {
  accountId,
  create,
  created,
  paused,
  scheduled,
  scheduledAfter,
  started,
  subscriptionId,
  t0,
  t2,
  watching,
} from '../subscription-examples.js';

const spec = deciderSpecification(subscriptionDecider);
const of = { subscriptionId, accountId };
const command = <Type extends string, Data extends object>(type: Type, data: Data) => ({
  type,
  data: { subscriptionId, now: t2, ...data },
});
const namesField = (field: string) => (error: Error) => {
  if (!error.message.startsWith(`${field} `)) throw error;
};

describe('subscription decider: its life', () => {
  it('CreateSubscription checks every 60 minutes from new videos on by default, its first check due at once', () => {
    spec
      .given([])
      .when(create())
      .then([created(), scheduled(t0)]);
    spec
      .given([])
      .when(create({ checkEveryMinutes: 15, start: { kind: 'latest', count: 5 } }))
      .then([created(15, { kind: 'latest', count: 5 }), scheduled(t0)]);
  });

  it('the same creation again does nothing; another subscription under its id is refused', () => {
    spec
      .given([created(), scheduled(t0)])
      .when(create())
      .thenNothingHappened();
    const other = { ...created(), data: { ...created().data, subscriptionId: 'sub-0' } } as SubscriptionEvent;
    spec.given([other]).when(create()).thenThrows(InvalidTransitionError);
  });

  it('refuses an interval under 15 minutes, over a week or not whole, and latest:N outside 1-500, naming the field', () => {
    for (const checkEveryMinutes of [14, 10_081, 30.5])
      spec
        .given([])
        .when(create({ checkEveryMinutes }))
        .thenThrows(RuleViolationError, namesField('checkEveryMinutes'));
    for (const count of [0, 501])
      spec
        .given([])
        .when(create({ start: { kind: 'latest', count } }))
        .thenThrows(RuleViolationError, namesField('start'));
  });

  it('pausing stops the checks; pausing again does nothing', () => {
    const pause = command('PauseSubscription', {});
    spec.given(watching()).when(pause).then([paused()]);
    spec
      .given([...watching(), paused()])
      .when(pause)
      .thenNothingHappened();
  });

  it('resuming schedules the next check on its phase; resuming an active subscription does nothing', () => {
    const resume = command('ResumeSubscription', {});
    spec
      .given([...watching(), paused()])
      .when(resume)
      .then([{ type: 'SubscriptionResumed', data: { ...of, resumedAt: t2 } }, scheduledAfter(t2)]);
    spec.given(watching()).when(resume).thenNothingHappened();
  });

  it('a subscription that paused itself resumes the same way', () => {
    spec
      .given([...watching(), paused('subscription', 'Credit limit reached')])
      .when(command('ResumeSubscription', {}))
      .then([{ type: 'SubscriptionResumed', data: { ...of, resumedAt: t2 } }, scheduledAfter(t2)]);
  });

  it('a new interval reschedules the next check on it, unless a check is under way or the subscription is paused', () => {
    const change = command('ChangeInterval', { checkEveryMinutes: 15 });
    const changed: SubscriptionEvent = {
      type: 'SubscriptionIntervalChanged',
      data: { ...of, checkEveryMinutes: 15, changedAt: t2 },
    };
    spec
      .given(watching())
      .when(change)
      .then([changed, scheduledAfter(t2, 15)]);
    spec
      .given([...watching(), started('check-2')])
      .when(change)
      .then([changed]);
    spec
      .given([...watching(), paused()])
      .when(change)
      .then([changed]);
    spec
      .given(watching())
      .when(command('ChangeInterval', { checkEveryMinutes: 60 }))
      .thenNothingHappened();
    spec
      .given(watching())
      .when(command('ChangeInterval', { checkEveryMinutes: 5 }))
      .thenThrows(RuleViolationError, namesField('checkEveryMinutes'));
  });

  it('a new format and language apply from now on; the same again does nothing', () => {
    spec
      .given(watching())
      .when(command('ChangeFormat', { format: '720' as const, language: 'de' }))
      .then([{ type: 'SubscriptionFormatChanged', data: { ...of, format: '720', language: 'de', changedAt: t2 } }]);
    spec
      .given(watching())
      .when(command('ChangeFormat', { format: 'audio' as const, language: null }))
      .thenNothingHappened();
  });

  it('a deleted subscription is gone: deleting again does nothing, any change is refused as not found', () => {
    const deleted: SubscriptionEvent = { type: 'SubscriptionDeleted', data: { ...of, deletedAt: t2 } };
    spec.given(watching()).when(command('DeleteSubscription', {})).then([deleted]);
    spec
      .given([...watching(), deleted])
      .when(command('DeleteSubscription', {}))
      .thenNothingHappened();
    for (const change of [
      command('PauseSubscription', {}),
      command('ResumeSubscription', {}),
      command('ChangeInterval', { checkEveryMinutes: 30 }),
      command('ChangeFormat', { format: '720' as const, language: null }),
      command('RequestCheck', {}),
    ])
      spec
        .given([...watching(), deleted])
        .when(change)
        .thenThrows(NotFoundError);
    spec.given([]).when(command('PauseSubscription', {})).thenThrows(NotFoundError);
  });

  it('RequestCheck brings the next check forward to now; one due or under way already answers it; a paused one refuses', () => {
    spec
      .given(watching())
      .when(command('RequestCheck', {}))
      .then([scheduled(t2)]);
    spec
      .given([...watching(), scheduled(t2)])
      .when(command('RequestCheck', {}))
      .thenNothingHappened();
    spec
      .given([...watching(), scheduled(t2), started('check-2', t2)])
      .when(command('RequestCheck', {}))
      .thenNothingHappened();
    spec
      .given([...watching(), paused()])
      .when(command('RequestCheck', {}))
      .thenThrows(InvalidTransitionError, (error) => assert.match(error.message, /is paused/));
  });
});
