import assert from 'node:assert/strict';
import { accountDecider } from '../../../../domain/account/decider.js';
import type { AccountEvent } from '../../../../domain/account/events.js';
import type { PlanTerms } from '../../../../domain/account/plan.js';
import { AccountRefusedError, InvalidTransitionError, RuleViolationError } from '../../../../domain/errors.js';
import { deciderSpecification } from '../../../support/decider-specification.js';

const spec = deciderSpecification(accountDecider);
const accountId = 'acc-1';
const t0 = '2026-01-31T10:00:00.000Z';
const t1 = '2026-01-31T11:00:00.000Z';
const plan: PlanTerms = {
  id: 'starter',
  allowances: { download_count: 5, bandwidth_mb: 1000, info: 10, client_download: 5, channel_list: 5 },
  bandwidthOverageMb: 0,
  maxFileSizeMb: 50,
  addOnsAvailable: ['channel_list'],
  renewsMonthly: true,
};
const opened: AccountEvent[] = [
  { type: 'AccountOpened', data: { accountId, name: 'Ada', email: 'ada@example.com', openedAt: t0 } },
  {
    type: 'PlanChanged',
    data: { accountId, plan, periodStart: t0, periodEnd: '2026-02-28T10:00:00.000Z', changedAt: t0 },
  },
];
const reserved: AccountEvent = { type: 'DownloadReserved', data: { accountId, jobId: 'j1', reservedAt: t0 } };
const suspended: AccountEvent = {
  type: 'AccountSuspended',
  data: { accountId, reason: 'unpaid invoice', suspendedAt: t0 },
};
const closed: AccountEvent = { type: 'AccountClosed', data: { accountId, closedAt: t0 } };
const reserve = { type: 'ReserveDownload' as const, data: { jobId: 'j2', pendingLimit: 100, now: t1 } };
const issueKey = {
  type: 'IssueApiKey' as const,
  data: { keyId: 'k2', keyPrefix: 'p', keyHash: 'h', encryptedKey: 'e', now: t1 },
};

describe('account decider: suspension, reactivation and closure', () => {
  it('suspends with the reason given, trimmed; a blank reason is refused; the same suspension again does nothing', () => {
    spec
      .given(opened)
      .when({ type: 'SuspendAccount', data: { reason: '  unpaid invoice ', now: t0 } })
      .then([suspended]);
    spec
      .given(opened)
      .when({ type: 'SuspendAccount', data: { reason: ' ', now: t0 } })
      .thenThrows(RuleViolationError);
    spec
      .given([...opened, suspended])
      .when({ type: 'SuspendAccount', data: { reason: 'unpaid invoice', now: t1 } })
      .thenNothingHappened();
  });

  it('refuses a suspended account new reservations and keys, telling the holder why', () => {
    spec
      .given([...opened, suspended])
      .when(reserve)
      .thenThrows(AccountRefusedError, (error) => assert.match(error.message, /suspended: unpaid invoice/));
    spec
      .given([...opened, suspended])
      .when(issueKey)
      .thenThrows(AccountRefusedError);
  });

  it('still settles what was under way, and lets an operator change the plan, then reactivate', () => {
    spec
      .given([...opened, reserved, suspended])
      .when({ type: 'ReleaseDownload', data: { jobId: 'j1', now: t1 } })
      .then([{ type: 'DownloadReleased', data: { accountId, jobId: 'j1', releasedAt: t1 } }]);
    spec
      .given([...opened, suspended])
      .when({ type: 'GrantExtraUnits', data: { feature: 'info', units: 3, now: t1 } })
      .then([
        { type: 'ExtraUnitsGranted', data: { accountId, feature: 'info', units: 3, reason: null, grantedAt: t1 } },
      ]);
    spec
      .given([...opened, suspended])
      .when({ type: 'ReactivateAccount', data: { now: t1 } })
      .then([{ type: 'AccountReactivated', data: { accountId, reactivatedAt: t1 } }]);
  });

  it('admits again once reactivated; reactivating an account that is not suspended does nothing', () => {
    const reactivated: AccountEvent = { type: 'AccountReactivated', data: { accountId, reactivatedAt: t0 } };
    spec
      .given([...opened, suspended, reactivated])
      .when(reserve)
      .then([{ type: 'DownloadReserved', data: { accountId, jobId: 'j2', reservedAt: t1 } }]);
    spec
      .given(opened)
      .when({ type: 'ReactivateAccount', data: { now: t1 } })
      .thenNothingHappened();
  });

  it('closes for good: the holder is refused, an operator’s change is a conflict, settlements still pass', () => {
    spec
      .given(opened)
      .when({ type: 'CloseAccount', data: { now: t0 } })
      .then([closed]);
    spec
      .given([...opened, suspended])
      .when({ type: 'CloseAccount', data: { now: t0 } })
      .then([closed]);
    spec
      .given([...opened, closed])
      .when({ type: 'CloseAccount', data: { now: t1 } })
      .thenNothingHappened();
    spec
      .given([...opened, closed])
      .when(reserve)
      .thenThrows(AccountRefusedError, (error) => assert.match(error.message, /closed/));
    spec
      .given([...opened, closed])
      .when({ type: 'ReactivateAccount', data: { now: t1 } })
      .thenThrows(InvalidTransitionError);
    spec
      .given([...opened, closed])
      .when({ type: 'ChangePlan', data: { plan, now: t1 } })
      .thenThrows(InvalidTransitionError);
    spec
      .given([...opened, reserved, closed])
      .when({ type: 'ChargeBandwidth', data: { jobId: 'j1', fileSizeBytes: 30_000_000, now: t1 } })
      .then([
        {
          type: 'BandwidthCharged',
          data: { accountId, jobId: 'j1', fileSizeBytes: 30_000_000, bandwidthMb: 30, downloads: 1, chargedAt: t1 },
        },
      ]);
  });

  it('erases only a closed account, once; an erased account still settles what was under way', () => {
    const erase = { type: 'EraseAccount' as const, data: { now: t1 } };
    const erased: AccountEvent = { type: 'AccountErased', data: { accountId, erasedAt: t1 } };
    spec
      .given([...opened, closed])
      .when(erase)
      .then([erased]);
    spec
      .given([...opened, closed, erased])
      .when(erase)
      .thenNothingHappened();
    for (const history of [opened, [...opened, suspended]])
      spec
        .given(history)
        .when(erase)
        .thenThrows(InvalidTransitionError, (error) => assert.match(error.message, /Close the account before erasing/));
    spec
      .given([...opened, reserved, closed, erased])
      .when({ type: 'ReleaseDownload', data: { jobId: 'j1', now: t1 } })
      .then([{ type: 'DownloadReleased', data: { accountId, jobId: 'j1', releasedAt: t1 } }]);
  });
});
