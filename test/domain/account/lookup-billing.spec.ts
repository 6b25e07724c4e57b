import assert from 'node:assert/strict';
import { accountBalances } from '../../../domain/account/balances.js';
import { accountDecider } from '../../../domain/account/decider.js';
import type { AccountEvent } from '../../../domain/account/events.js';
import type { LookupFeature } from '../../../domain/account/lookups.js';
import type { PlanTerms } from '../../../domain/account/plan.js';
import { foldEvents } from '../../support/fold-events.js';
import { AddOnNotEnabledError, CreditLimitReachedError, RuleViolationError } from '../../../domain/errors.js';
import { deciderSpecification } from '../../support/decider-specification.js';

const spec = deciderSpecification(accountDecider);
const accountId = 'acc-1';
const t0 = '2026-01-31T10:00:00.000Z';
const t1 = '2026-02-10T10:00:00.000Z';
const video = 'https://www.youtube.com/watch?v=abc';
const channel = 'https://www.youtube.com/@someone';

const plan: PlanTerms = {
  id: 'starter',
  allowances: { download_count: 3, bandwidth_mb: 100, info: 2, client_download: 1, channel_list: 5 },
  bandwidthOverageMb: 20,
  maxFileSizeMb: 50,
  addOnsAvailable: ['client_download', 'channel_list'],
  renewsMonthly: true,
};

const opened: AccountEvent[] = [
  { type: 'AccountOpened', data: { accountId, name: 'Ada', email: 'ada@example.com', openedAt: t0 } },
  {
    type: 'PlanChanged',
    data: { accountId, plan, periodStart: t0, periodEnd: '2026-02-28T10:00:00.000Z', changedAt: t0 },
  },
];
const withAddOns: AccountEvent[] = [
  ...opened,
  { type: 'AddOnEnabled', data: { accountId, addOn: 'client_download', enabledAt: t0 } },
  { type: 'AddOnEnabled', data: { accountId, addOn: 'channel_list', enabledAt: t0 } },
];
const reserved = (lookupId: string, feature: LookupFeature, units = 1, subject = video): AccountEvent => ({
  type: 'LookupReserved',
  data: { accountId, lookupId, feature, units, subject, reservedAt: t1 },
});
const charged = (lookupId: string, feature: LookupFeature, units = 1, subject = video): AccountEvent => ({
  type: 'LookupCharged',
  data: { accountId, lookupId, feature, units, subject, chargedAt: t1 },
});
const released = (lookupId: string, feature: LookupFeature): AccountEvent => ({
  type: 'LookupReleased',
  data: { accountId, lookupId, feature, releasedAt: t1 },
});
const reserve = (lookupId: string, feature: LookupFeature, units = 1, subject = video) =>
  ({ type: 'ReserveLookup', data: { lookupId, feature, units, subject, now: t1 } }) as const;

describe('account decider: lookups (info, client download, channel listing)', () => {
  describe('ReserveLookup', () => {
    it('holds the units of an info request', () => {
      spec
        .given(opened)
        .when(reserve('i1', 'info'))
        .then([reserved('i1', 'info')]);
    });

    it('ignores a repeated reservation of the same lookup', () => {
      spec
        .given([...opened, reserved('i1', 'info')])
        .when(reserve('i1', 'info'))
        .thenNothingHappened();
    });

    it('refuses a listing without the channel_list add-on, naming it', () => {
      spec
        .given(opened)
        .when(reserve('l1', 'channel_list', 1, channel))
        .thenThrows(AddOnNotEnabledError, (error) => assert.match(error.message, /channel_list add-on is not enabled/));
      spec.given(opened).when(reserve('c1', 'client_download')).thenThrows(AddOnNotEnabledError);
    });

    it('counts units charged and units held by pending lookups against the allowance', () => {
      spec
        .given([...opened, charged('i1', 'info'), reserved('i2', 'info')])
        .when(reserve('i3', 'info'))
        .thenThrows(CreditLimitReachedError);
      spec
        .given([...withAddOns, reserved('l1', 'channel_list', 3, channel)])
        .when(reserve('l2', 'channel_list', 3, channel))
        .thenThrows(CreditLimitReachedError);
      spec
        .given([...withAddOns, reserved('l1', 'channel_list', 3, channel)])
        .when(reserve('l2', 'channel_list', 2, channel))
        .then([reserved('l2', 'channel_list', 2, channel)]);
    });

    it('frees the units of a released lookup', () => {
      spec
        .given([...withAddOns, reserved('c1', 'client_download'), released('c1', 'client_download')])
        .when(reserve('c2', 'client_download'))
        .then([reserved('c2', 'client_download')]);
    });

    it('refuses a reservation of no units', () => {
      spec
        .given(withAddOns)
        .when(reserve('l1', 'channel_list', 0, channel))
        .thenThrows(RuleViolationError);
    });
  });

  describe('ChargeLookup and ReleaseLookup', () => {
    it('charges what was reserved', () => {
      spec
        .given([...opened, reserved('i1', 'info')])
        .when({ type: 'ChargeLookup', data: { lookupId: 'i1', now: t1 } })
        .then([charged('i1', 'info')]);
    });

    it('settles a listing to the items returned: 23 entries of a 30-video reservation charge 3 units', () => {
      spec
        .given([...withAddOns, reserved('l1', 'channel_list', 3, channel)])
        .when({ type: 'ChargeLookup', data: { lookupId: 'l1', units: 3, now: t1 } })
        .then([charged('l1', 'channel_list', 3, channel)]);
    });

    it('refuses to charge more than was reserved', () => {
      spec
        .given([...withAddOns, reserved('l1', 'channel_list', 1, channel)])
        .when({ type: 'ChargeLookup', data: { lookupId: 'l1', units: 2, now: t1 } })
        .thenThrows(RuleViolationError);
    });

    it('charges nothing twice', () => {
      spec
        .given([...opened, reserved('i1', 'info'), charged('i1', 'info')])
        .when({ type: 'ChargeLookup', data: { lookupId: 'i1', now: t1 } })
        .thenNothingHappened();
    });

    it('charges nothing for a failed job, whose reservation was released', () => {
      spec
        .given([...opened, reserved('i1', 'info'), released('i1', 'info')])
        .when({ type: 'ChargeLookup', data: { lookupId: 'i1', now: t1 } })
        .thenNothingHappened();
      spec
        .given([...opened, reserved('i1', 'info'), charged('i1', 'info')])
        .when({ type: 'ReleaseLookup', data: { lookupId: 'i1', now: t1 } })
        .thenNothingHappened();
    });

    it('releases a pending lookup', () => {
      spec
        .given([...opened, reserved('i1', 'info')])
        .when({ type: 'ReleaseLookup', data: { lookupId: 'i1', now: t1 } })
        .then([released('i1', 'info')]);
    });

    it('shows charged units as used in the balances', () => {
      const state = foldEvents(accountDecider, [
        ...withAddOns,
        reserved('l1', 'channel_list', 3, channel),
        charged('l1', 'channel_list', 3, channel),
        reserved('i1', 'info'),
        charged('i1', 'info'),
      ]);
      const balances = accountBalances(state, Date.parse(t1));
      assert.deepEqual([balances.channel_list?.used, balances.channel_list?.remaining], [3, 2]);
      assert.deepEqual([balances.info?.used, balances.info?.remaining], [1, 1]);
      assert.equal(balances.client_download?.used, 0);
    });
  });
});
