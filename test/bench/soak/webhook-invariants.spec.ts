import assert from 'node:assert/strict';
import type { WebhookDeliveryHistory } from '../../../application/audit/webhook-delivery-history.js';
import { checkWebhooks } from '../../../bench/soak/webhook-invariants.js';
import type { ReceivedAttempt } from '../../../bench/soak/webhook-receivers.js';
import { webhookSignatureHeader } from '../../../infrastructure/webhooks/webhook-signature.js';
import { ledgerWith } from './soak-records.js';

const AT = Date.parse('2026-11-28T12:00:00Z');

function acknowledgedOnce(): Map<string, WebhookDeliveryHistory> {
  const history: WebhookDeliveryHistory = {
    jobId: 'job-1',
    accountId: 'account-1',
    webhookUrl: 'http://127.0.0.1:1/hook/ok',
    finished: { status: 'COMPLETED', at: new Date(AT - 1_000).toISOString() },
    attempts: [
      {
        attempt: 1,
        startedAt: new Date(AT).toISOString(),
        workerId: 'worker-1',
        outcome: 'acknowledged',
        statusCode: 200,
        errorClass: null,
        detail: null,
        durationMs: 5,
        finishedAt: new Date(AT + 5).toISOString(),
        nextDelayMs: null,
      },
    ],
    result: 'acknowledged',
    endedAt: new Date(AT + 5).toISOString(),
  };
  return new Map([['job-1', history]]);
}

function receivedWith(
  signature: string | null,
  rawBody = '{"event":"download.completed"}',
): { attemptsFor(): ReceivedAttempt[] } {
  return { attemptsFor: () => [{ attempt: 1, at: AT, answered: 200, rawBody, signature }] };
}

describe('soak webhook invariants', () => {
  const { ledger, job } = ledgerWith({ status: 'COMPLETED', webhook: 'ok' });
  const body = '{"event":"download.completed"}';

  it('hold for a delivery signed with the account key over the body it carried', () => {
    const signed = webhookSignatureHeader(body, job.key, Math.floor(AT / 1000));
    assert.deepEqual(checkWebhooks(ledger, acknowledgedOnce(), receivedWith(signed, body)), []);
  });

  it('break for a delivery signed with another key, over another body, long before it arrived, or unsigned', () => {
    const now = Math.floor(AT / 1000);
    const cases: Array<[string | null, RegExp]> = [
      [webhookSignatureHeader(body, 'vds_another-key', now), /bad signature \(signature_mismatch\)/],
      [webhookSignatureHeader('{"event":"download.failed"}', job.key, now), /bad signature \(signature_mismatch\)/],
      [webhookSignatureHeader(body, job.key, now - 3_600), /bad signature \(timestamp_outside_tolerance\)/],
      [null, /bad signature \(missing_signature\)/],
    ];
    for (const [signature, reason] of cases) {
      const broken = checkWebhooks(ledger, acknowledgedOnce(), receivedWith(signature, body));
      assert.equal(broken.length, 1, String(signature));
      assert.match(broken[0], reason);
    }
  });
});
