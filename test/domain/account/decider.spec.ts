import assert from 'node:assert/strict';
import { accountDecider } from '../../../domain/account/decider.js';
import type { AccountEvent } from '../../../domain/account/events.js';
import type { PlanTerms } from '../../../domain/account/plan.js';
import {
  CreditLimitReachedError,
  InvalidTransitionError,
  NotFoundError,
  PendingDownloadsLimitError,
  RuleViolationError,
} from '../../../domain/errors.js';
import { deciderSpecification } from '../../support/decider-specification.js';

const spec = deciderSpecification(accountDecider);
const accountId = 'acc-1';
const t0 = '2026-01-31T10:00:00.000Z';
const t1 = '2026-02-10T10:00:00.000Z';

const monthly: PlanTerms = {
  id: 'starter',
  allowances: { download_count: 3, bandwidth_mb: 100, info: 10, client_download: 5, channel_list: 5 },
  bandwidthOverageMb: 20,
  maxFileSizeMb: 50,
  addOnsAvailable: ['client_download', 'channel_list'],
  renewsMonthly: true,
};
const bigger: PlanTerms = {
  ...monthly,
  id: 'growth',
  allowances: { ...monthly.allowances, download_count: 10, bandwidth_mb: 1000 },
};
const free: PlanTerms = {
  id: 'free',
  allowances: { download_count: 2, bandwidth_mb: 40, info: 5, client_download: 0, channel_list: 0 },
  bandwidthOverageMb: 0,
  maxFileSizeMb: 50,
  addOnsAvailable: [],
  renewsMonthly: false,
};

const opened = (plan: PlanTerms = monthly, at = t0): AccountEvent[] => [
  { type: 'AccountOpened', data: { accountId, name: 'Ada', email: 'ada@example.com', openedAt: at } },
  {
    type: 'PlanChanged',
    data: {
      accountId,
      plan,
      periodStart: at,
      periodEnd: plan.renewsMonthly ? '2026-02-28T10:00:00.000Z' : null,
      changedAt: at,
    },
  },
];
const reserved = (jobId: string, at = t0): AccountEvent => ({
  type: 'DownloadReserved',
  data: { accountId, jobId, reservedAt: at },
});
const charged = (jobId: string, bytes: number, mb: number, at = t0): AccountEvent => ({
  type: 'BandwidthCharged',
  data: { accountId, jobId, fileSizeBytes: bytes, bandwidthMb: mb, downloads: 1, chargedAt: at },
});

describe('account decider', () => {
  describe('OpenAccount', () => {
    it('opens the account, starts a monthly period clamped to the shorter month, and enables add-ons', () => {
      spec
        .given([])
        .when({
          type: 'OpenAccount',
          data: { accountId, name: 'Ada', email: 'ada@example.com', plan: monthly, addOns: ['channel_list'], now: t0 },
        })
        .then([...opened(), { type: 'AddOnEnabled', data: { accountId, addOn: 'channel_list', enabledAt: t0 } }]);
    });
    it('gives a one-off period on the free plan', () => {
      spec
        .given([])
        .when({
          type: 'OpenAccount',
          data: { accountId, name: 'Ada', email: 'ada@example.com', plan: free, addOns: [], now: t0 },
        })
        .then(opened(free));
    });
    it('rejects opening twice, add-ons the plan lacks, and a bad email', () => {
      const open = (overrides: object) => ({
        type: 'OpenAccount' as const,
        data: { accountId, name: 'Ada', email: 'ada@example.com', plan: free, addOns: [], now: t0, ...overrides },
      });
      spec.given(opened()).when(open({})).thenThrows(InvalidTransitionError);
      spec
        .given([])
        .when(open({ addOns: ['client_download'] }))
        .thenThrows(RuleViolationError);
      spec
        .given([])
        .when(open({ email: 'nope' }))
        .thenThrows(RuleViolationError);
    });
  });

  describe('commands on an account that does not exist', () => {
    it('are rejected as not found', () => {
      spec
        .given([])
        .when({ type: 'ReserveDownload', data: { jobId: 'j1', pendingLimit: 100, now: t0 } })
        .thenThrows(NotFoundError);
    });
  });

  describe('ChangePlan', () => {
    it('keeps the period and its usage between monthly plans', () => {
      spec
        .given([...opened(), reserved('j1'), charged('j1', 5, 20)])
        .when({ type: 'ChangePlan', data: { plan: bigger, now: t1 } })
        .then([
          {
            type: 'PlanChanged',
            data: { accountId, plan: bigger, periodStart: t0, periodEnd: '2026-02-28T10:00:00.000Z', changedAt: t1 },
          },
        ]);
    });
    it('starts a new period when leaving the free plan, and disables add-ons the new plan lacks', () => {
      spec
        .given([...opened(), { type: 'AddOnEnabled', data: { accountId, addOn: 'client_download', enabledAt: t0 } }])
        .when({ type: 'ChangePlan', data: { plan: free, now: t1 } })
        .then([
          { type: 'PlanChanged', data: { accountId, plan: free, periodStart: t1, periodEnd: null, changedAt: t1 } },
          { type: 'AddOnDisabled', data: { accountId, addOn: 'client_download', disabledAt: t1 } },
        ]);
    });
  });

  describe('ScheduleCancellation and renewal', () => {
    const cancellation: AccountEvent = {
      type: 'PlanCancellationScheduled',
      data: { accountId, cancelAt: '2026-02-28T10:00:00.000Z', fallbackPlan: free, scheduledAt: t1 },
    };
    it('schedules the cancellation at the end of the period', () => {
      spec
        .given(opened())
        .when({ type: 'ScheduleCancellation', data: { fallbackPlan: free, now: t1 } })
        .then([cancellation]);
    });
    it('is a no-op when already scheduled and rejected on a plan that never renews', () => {
      spec
        .given([...opened(), cancellation])
        .when({ type: 'ScheduleCancellation', data: { fallbackPlan: free, now: t1 } })
        .thenNothingHappened();
      spec
        .given(opened(free))
        .when({ type: 'ScheduleCancellation', data: { fallbackPlan: free, now: t1 } })
        .thenThrows(RuleViolationError);
    });
    it('records a renewal before the first change of a new period, skipping idle months', () => {
      const now = '2026-05-01T00:00:00.000Z';
      spec
        .given([...opened(), reserved('j1')])
        .when({ type: 'ChargeBandwidth', data: { jobId: 'j1', fileSizeBytes: 30_000_000, now } })
        .then([
          {
            type: 'BillingPeriodRenewed',
            data: { accountId, periodStart: '2026-04-30T10:00:00.000Z', periodEnd: '2026-05-31T10:00:00.000Z' },
          },
          charged('j1', 30_000_000, 30, now),
        ]);
    });
    it('falls back to the free plan when a scheduled cancellation comes due', () => {
      const now = '2026-03-05T00:00:00.000Z';
      spec
        .given([...opened(), cancellation])
        .when({ type: 'GrantExtraUnits', data: { feature: 'info', units: 5, now } })
        .then([
          {
            type: 'PlanChanged',
            data: {
              accountId,
              plan: free,
              periodStart: '2026-02-28T10:00:00.000Z',
              periodEnd: null,
              changedAt: '2026-02-28T10:00:00.000Z',
            },
          },
          { type: 'ExtraUnitsGranted', data: { accountId, feature: 'info', units: 5, reason: null, grantedAt: now } },
        ]);
    });
  });

  describe('add-ons, grants and keys', () => {
    it('enables an add-on the plan offers, once', () => {
      spec
        .given(opened())
        .when({ type: 'EnableAddOn', data: { addOn: 'client_download', now: t1 } })
        .then([{ type: 'AddOnEnabled', data: { accountId, addOn: 'client_download', enabledAt: t1 } }]);
      spec
        .given([...opened(), { type: 'AddOnEnabled', data: { accountId, addOn: 'client_download', enabledAt: t1 } }])
        .when({ type: 'EnableAddOn', data: { addOn: 'client_download', now: t1 } })
        .thenNothingHappened();
    });
    it('rejects an add-on the plan does not offer, and disabling what is off does nothing', () => {
      spec
        .given(opened(free))
        .when({ type: 'EnableAddOn', data: { addOn: 'channel_list', now: t1 } })
        .thenThrows(RuleViolationError);
      spec
        .given(opened())
        .when({ type: 'DisableAddOn', data: { addOn: 'channel_list', now: t1 } })
        .thenNothingHappened();
    });
    it('rejects grants that are not positive integers', () => {
      spec
        .given(opened())
        .when({ type: 'GrantExtraUnits', data: { feature: 'info', units: 0, now: t1 } })
        .thenThrows(RuleViolationError);
      spec
        .given(opened())
        .when({ type: 'GrantExtraUnits', data: { feature: 'info', units: 1.5, now: t1 } })
        .thenThrows(RuleViolationError);
    });
    it('issues and revokes keys; revoking an unknown key is not found', () => {
      const issued: AccountEvent = {
        type: 'ApiKeyIssued',
        data: { accountId, keyId: 'k1', keyPrefix: 'vds_abc', keyHash: 'h', encryptedKey: 'e', issuedAt: t1 },
      };
      spec
        .given(opened())
        .when({
          type: 'IssueApiKey',
          data: { keyId: 'k1', keyPrefix: 'vds_abc', keyHash: 'h', encryptedKey: 'e', now: t1 },
        })
        .then([issued]);
      spec
        .given([...opened(), issued])
        .when({ type: 'RevokeApiKey', data: { keyId: 'k1', now: t1 } })
        .then([{ type: 'ApiKeyRevoked', data: { accountId, keyId: 'k1', revokedAt: t1 } }]);
      spec
        .given(opened())
        .when({ type: 'RevokeApiKey', data: { keyId: 'k9', now: t1 } })
        .thenThrows(NotFoundError);
    });
    it('keeps a key’s name, and refuses a 21st active key while a revoked one frees a place', () => {
      const issue = (keyId: string, name?: string) => ({
        type: 'IssueApiKey' as const,
        data: {
          keyId,
          keyPrefix: 'vds_abc',
          keyHash: `h-${keyId}`,
          encryptedKey: 'e',
          now: t1,
          ...(name ? { name } : {}),
        },
      });
      const issued = (keyId: string): AccountEvent => ({
        type: 'ApiKeyIssued',
        data: { accountId, keyId, keyPrefix: 'vds_abc', keyHash: `h-${keyId}`, encryptedKey: 'e', issuedAt: t1 },
      });
      spec
        .given(opened())
        .when(issue('k1', 'staging'))
        .then([{ ...issued('k1'), data: { ...issued('k1').data, name: 'staging' } } as AccountEvent]);
      const twenty = Array.from({ length: 20 }, (_, index) => issued(`k${index}`));
      spec
        .given([...opened(), ...twenty])
        .when(issue('k20'))
        .thenThrows(RuleViolationError);
      const oneRevoked: AccountEvent = { type: 'ApiKeyRevoked', data: { accountId, keyId: 'k3', revokedAt: t1 } };
      spec
        .given([...opened(), ...twenty, oneRevoked])
        .when(issue('k20'))
        .then([issued('k20')]);
    });
  });

  describe('ReserveDownload', () => {
    const reserve = (jobId: string, pendingLimit = 100) => ({
      type: 'ReserveDownload' as const,
      data: { jobId, pendingLimit, now: t1 },
    });
    it('reserves a slot, and reserving the same job again does nothing', () => {
      spec
        .given(opened())
        .when(reserve('j1'))
        .then([reserved('j1', t1)]);
      spec
        .given([...opened(), reserved('j1')])
        .when(reserve('j1'))
        .thenNothingHappened();
    });
    it('refuses with 429 semantics at the pending limit', () => {
      spec
        .given([...opened(bigger), reserved('j1'), reserved('j2')])
        .when(reserve('j3', 2))
        .thenThrows(PendingDownloadsLimitError, (error) => {
          assert.equal((error as PendingDownloadsLimitError).pending, 2);
          assert.equal((error as PendingDownloadsLimitError).limit, 2);
        });
    });
    it('refuses when the download quota would be exceeded by pending jobs', () => {
      spec
        .given([...opened(), reserved('j1'), charged('j1', 1, 20), reserved('j2'), reserved('j3')])
        .when(reserve('j4'))
        .thenThrows(CreditLimitReachedError, (error) => assert.equal(error.message, 'Credit limit reached'));
    });
    it('counts the overage allowance and the 20 MB minimum of every pending job against bandwidth', () => {
      // 100 MB + 20 MB overage: 80 MB used leaves room for exactly two more 20 MB minimums.
      const history = [...opened(bigger), reserved('a'), charged('a', 80_000_000, 80)];
      const withOverage = { ...bigger, allowances: { ...bigger.allowances, bandwidth_mb: 100 } };
      history[1] = { ...opened(withOverage)[1] } as AccountEvent;
      spec
        .given([...history, reserved('b')])
        .when(reserve('c'))
        .then([reserved('c', t1)]);
      spec
        .given([...history, reserved('b'), reserved('c')])
        .when(reserve('d'))
        .thenThrows(CreditLimitReachedError);
    });
    it('checks credit before the pending limit', () => {
      spec
        .given([...opened(), reserved('j1'), reserved('j2'), reserved('j3')])
        .when(reserve('j4', 3))
        .thenThrows(CreditLimitReachedError);
    });
    it('grants extra units that lift the limit for the period', () => {
      spec
        .given([
          ...opened(),
          reserved('j1'),
          reserved('j2'),
          reserved('j3'),
          {
            type: 'ExtraUnitsGranted',
            data: { accountId, feature: 'download_count', units: 1, reason: null, grantedAt: t0 },
          },
          {
            type: 'ExtraUnitsGranted',
            data: { accountId, feature: 'bandwidth_mb', units: 20, reason: null, grantedAt: t0 },
          },
        ])
        .when(reserve('j4'))
        .then([reserved('j4', t1)]);
    });
  });

  describe('ChargeBandwidth and ReleaseDownload', () => {
    it('charges whole megabytes of 10^6 bytes, rounded up, at least 20, plus one download', () => {
      spec
        .given([...opened(), reserved('j1')])
        .when({ type: 'ChargeBandwidth', data: { jobId: 'j1', fileSizeBytes: 1_234, now: t1 } })
        .then([charged('j1', 1_234, 20, t1)]);
      spec
        .given([...opened(), reserved('j1')])
        .when({ type: 'ChargeBandwidth', data: { jobId: 'j1', fileSizeBytes: 25_000_001, now: t1 } })
        .then([charged('j1', 25_000_001, 26, t1)]);
    });
    it('never charges the same job twice, nor a job that was released', () => {
      spec
        .given([...opened(), reserved('j1'), charged('j1', 5, 20)])
        .when({ type: 'ChargeBandwidth', data: { jobId: 'j1', fileSizeBytes: 5, now: t1 } })
        .thenNothingHappened();
      spec
        .given([
          ...opened(),
          reserved('j1'),
          { type: 'DownloadReleased', data: { accountId, jobId: 'j1', releasedAt: t0 } },
        ])
        .when({ type: 'ChargeBandwidth', data: { jobId: 'j1', fileSizeBytes: 5, now: t1 } })
        .thenNothingHappened();
    });
    it('releases a pending job once', () => {
      spec
        .given([...opened(), reserved('j1')])
        .when({ type: 'ReleaseDownload', data: { jobId: 'j1', now: t1 } })
        .then([{ type: 'DownloadReleased', data: { accountId, jobId: 'j1', releasedAt: t1 } }]);
      spec
        .given(opened())
        .when({ type: 'ReleaseDownload', data: { jobId: 'j1', now: t1 } })
        .thenNothingHappened();
    });
  });
});
