import assert from 'node:assert/strict';
import { verifyWebhookSignature } from '../../../infrastructure/webhooks/verify-webhook-signature.js';
import { webhookSignatureHeader } from '../../../infrastructure/webhooks/webhook-signature.js';

describe('verifyWebhookSignature (for receivers)', () => {
  const key = 'vds_receiver-secret';
  const body = '{"jobId":"j1","status":"FAILED"}';
  const t = 1_790_000_000;
  const header = webhookSignatureHeader(body, key, t);
  const at = (seconds: number) => ({ now: (t + seconds) * 1000 });

  it('accepts the signature over the raw body with the key, inside the 300 s window', () => {
    assert.deepEqual(verifyWebhookSignature(body, header, key, at(0)), { ok: true, timestamp: t });
    assert.deepEqual(verifyWebhookSignature(Buffer.from(body), header, key, at(300)), { ok: true, timestamp: t });
  });

  it('refuses a signature older than the window, or too far ahead', () => {
    assert.equal(reason(verifyWebhookSignature(body, header, key, at(301))), 'timestamp_outside_tolerance');
    assert.equal(reason(verifyWebhookSignature(body, header, key, at(-301))), 'timestamp_outside_tolerance');
    assert.equal(verifyWebhookSignature(body, header, key, { ...at(1_000), toleranceSeconds: 3_600 }).ok, true);
  });

  it('refuses another body, another key, or a changed timestamp', () => {
    assert.equal(reason(verifyWebhookSignature(`${body} `, header, key, at(0))), 'signature_mismatch');
    assert.equal(reason(verifyWebhookSignature(body, header, 'vds_other', at(0))), 'signature_mismatch');
    assert.equal(
      reason(verifyWebhookSignature(body, header.replace(`t=${t}`, `t=${t + 1}`), key, at(0))),
      'signature_mismatch',
    );
  });

  it('names what is wrong with a missing or malformed header', () => {
    assert.equal(reason(verifyWebhookSignature(body, undefined, key)), 'missing_signature');
    assert.equal(reason(verifyWebhookSignature(body, '', key)), 'missing_signature');
    for (const malformed of [
      'v1=abc',
      `t=${t}`,
      `t=soon,v1=${'a'.repeat(64)}`,
      `t=${t},v1=${'A'.repeat(64)}`,
      'garbage',
    ]) {
      assert.equal(reason(verifyWebhookSignature(body, malformed, key, at(0))), 'malformed_signature', malformed);
    }
  });
});

function reason(verdict: ReturnType<typeof verifyWebhookSignature>): string | null {
  return verdict.ok ? null : verdict.reason;
}
