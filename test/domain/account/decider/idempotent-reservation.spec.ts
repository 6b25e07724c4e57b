import { accountDecider } from '../../../../domain/account/decider.js';
import type { AccountEvent } from '../../../../domain/account/events.js';
import type { PlanTerms } from '../../../../domain/account/plan.js';
import { IdempotencyKeyReusedError } from '../../../../domain/errors.js';
import { deciderSpecification } from '../../../support/decider-specification.js';

const spec = deciderSpecification(accountDecider);
const accountId = 'acc-1';
const t0 = '2026-01-31T10:00:00.000Z';
const plan: PlanTerms = {
  id: 'starter',
  allowances: { download_count: 1, bandwidth_mb: 100, info: 10, client_download: 5, channel_list: 5 },
  bandwidthOverageMb: 0,
  maxFileSizeMb: 50,
  addOnsAvailable: [],
  renewsMonthly: true,
};
const opened: AccountEvent[] = [
  { type: 'AccountOpened', data: { accountId, name: 'Ada', email: 'ada@example.com', openedAt: t0 } },
  {
    type: 'PlanChanged',
    data: { accountId, plan, periodStart: t0, periodEnd: '2026-02-28T10:00:00.000Z', changedAt: t0 },
  },
];
const reservedWithKey = (jobId: string, key: string, requestHash: string, at = t0): AccountEvent => ({
  type: 'DownloadReserved',
  data: { accountId, jobId, reservedAt: at, idempotencyKey: key, requestHash },
});
const reserve = (jobId: string, key: string, requestHash: string, now: string) => ({
  type: 'ReserveDownload' as const,
  data: { jobId, pendingLimit: 100, now, idempotency: { key, requestHash } },
});

describe('account decider: ReserveDownload with an Idempotency-Key', () => {
  it('records the key and the request hash with the reservation', () => {
    spec
      .given(opened)
      .when(reserve('j1', 'k1', 'h1', t0))
      .then([reservedWithKey('j1', 'k1', 'h1')]);
  });

  it('does nothing for a repeat with the same request, even when the first one used up the allowance', () => {
    spec
      .given([...opened, reservedWithKey('j1', 'k1', 'h1')])
      .when(reserve('j2', 'k1', 'h1', '2026-01-31T11:00:00.000Z'))
      .thenNothingHappened();
  });

  it('refuses the same key with a different request', () => {
    spec
      .given([...opened, reservedWithKey('j1', 'k1', 'h1')])
      .when(reserve('j2', 'k1', 'h2', '2026-01-31T11:00:00.000Z'))
      .thenThrows(IdempotencyKeyReusedError);
  });

  it('forgets a key 24 hours after its reservation', () => {
    const dayLater = '2026-02-01T10:00:00.000Z';
    spec
      .given([
        ...opened,
        reservedWithKey('j1', 'k1', 'h1'),
        { type: 'DownloadReleased', data: { accountId, jobId: 'j1', releasedAt: t0 } },
      ])
      .when(reserve('j2', 'k1', 'h2', dayLater))
      .then([reservedWithKey('j2', 'k1', 'h2', dayLater)]);
  });

  it('forgets the key of a job that was abandoned, so a retry with it is admitted afresh', () => {
    spec
      .given([
        ...opened,
        reservedWithKey('j1', 'k1', 'h1'),
        { type: 'DownloadReleased', data: { accountId, jobId: 'j1', releasedAt: t0, abandoned: true } },
      ])
      .when(reserve('j2', 'k1', 'h1', t0))
      .then([reservedWithKey('j2', 'k1', 'h1')]);
  });
});
