import assert from 'node:assert/strict';
import { verifyWebhookSignature } from '../../../../infrastructure/webhooks/verify-webhook-signature.js';

describe('the package entry (for webhook receivers)', () => {
  it('exports verifyWebhookSignature under the package name', () => {
    // Resolved through package.json `exports`, as a receiver's require would.
    const entry = require('video-download-service') as Record<string, unknown>;
    assert.deepEqual(Object.keys(entry), ['verifyWebhookSignature']);
    assert.equal(entry.verifyWebhookSignature, verifyWebhookSignature);
  });
});
