import assert from 'node:assert/strict';
import { checkWebhookUrl, isPublicAddress } from '../../../infrastructure/security/webhook-url-policy.js';

describe('webhook URL policy', () => {
  const refused = [
    'http://127.0.0.1/hook',
    'http://127.1/hook',
    'http://2130706433/hook',
    'http://0x7f.0.0.1/hook',
    'http://0177.0.0.1/hook',
    'http://0x7f000001/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:10.0.0.1]/hook',
    'http://10.1.2.3/hook',
    'http://172.16.0.1/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/hook',
    'http://0.0.0.0/hook',
    'http://224.0.0.1/hook',
    'http://255.255.255.255/hook',
    'http://[fc00::1]/hook',
    'http://[fe80::1]/hook',
    'http://localhost/hook',
    'http://api.localhost/hook',
    'http://printer.local/hook',
    'http://service.internal/hook',
    'http://intranet/hook',
    'https://user:pass@example.com/hook',
    'ftp://example.com/hook',
    'not a url',
  ];
  for (const url of refused) {
    it(`refuses ${url}`, () => assert.equal(checkWebhookUrl(url).ok, false));
  }

  it('accepts public addresses and names, resolvable here or not', () => {
    for (const url of ['https://example.com/hooks/video', 'http://93.184.216.34:8080/h', 'https://[2606:4700:4700::1111]/h', 'https://hooks.does-not-resolve.example/x']) {
      assert.deepEqual(checkWebhookUrl(url), { ok: true }, url);
    }
  });

  it('lets the operator allowlist a local receiver by host or host:port', () => {
    assert.deepEqual(checkWebhookUrl('http://127.0.0.1:9999/h', { allowHosts: ['127.0.0.1:9999'] }), { ok: true });
    assert.equal(checkWebhookUrl('http://127.0.0.1:9998/h', { allowHosts: ['127.0.0.1:9999'] }).ok, false);
  });

  it('tells public from non-public resolved addresses', () => {
    assert.equal(isPublicAddress('8.8.8.8'), true);
    assert.equal(isPublicAddress('10.0.0.8'), false);
    assert.equal(isPublicAddress('::ffff:192.168.0.1'), false);
    assert.equal(isPublicAddress('garbage'), false);
  });
});
