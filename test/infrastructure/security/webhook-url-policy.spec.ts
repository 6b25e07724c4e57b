import assert from 'node:assert/strict';
import { checkWebhookUrl, isPublicAddress } from '../../../infrastructure/security/webhook-url-policy.js';

function reason(url: string, allowHosts?: string[]): string {
  const result = checkWebhookUrl(url, { allowHosts });
  assert.equal(result.ok, false, `expected ${url} to be refused`);
  return result.ok ? '' : result.reason;
}

describe('webhook URL policy', () => {
  describe('literal addresses, in every spelling', () => {
    const cases: Array<[string, string]> = [
      ['http://127.0.0.1/hook', '127.0.0.1 is loopback'],
      ['http://127.255.255.254:8080/hook', '127.255.255.254 is loopback'],
      ['http://127.1/hook', '127.0.0.1 is loopback'],
      ['http://2130706433/hook', '127.0.0.1 is loopback'],
      ['http://0x7f000001/hook', '127.0.0.1 is loopback'],
      ['http://0x7f.1/hook', '127.0.0.1 is loopback'],
      ['http://0x7F.0.0.1/hook', '127.0.0.1 is loopback'],
      ['http://0177.0.0.1/hook', '127.0.0.1 is loopback'],
      ['http://017700000001/hook', '127.0.0.1 is loopback'],
      ['http://127.000.000.001/hook', '127.0.0.1 is loopback'],
      ['http://127.0.0.1./hook', '127.0.0.1 is loopback'],
      ['http://１２７.０.０.１/hook', '127.0.0.1 is loopback'],
      ['http://[::1]/hook', '[::1] is loopback'],
      ['http://[0:0:0:0:0:0:0:1]:9000/hook', '[::1] is loopback'],
      ['http://[::ffff:127.0.0.1]/hook', '[::ffff:7f00:1] is loopback'],
      ['http://[::ffff:7f00:1]/hook', '[::ffff:7f00:1] is loopback'],
      ['http://[::ffff:10.0.0.1]/hook', '[::ffff:a00:1] is private'],
      ['http://[::ffff:169.254.169.254]/hook', '[::ffff:a9fe:a9fe] is link-local'],
      ['http://[::127.0.0.1]/hook', '[::7f00:1] is not global unicast'],
      ['http://[64:ff9b::127.0.0.1]/hook', '[64:ff9b::7f00:1] is special-purpose (rfc6052)'],
      ['http://[2002:7f00:1::]/hook', '[2002:7f00:1::] is special-purpose (6to4)'],
      ['http://10.1.2.3/hook', '10.1.2.3 is private'],
      ['http://012.1.2.3/hook', '10.1.2.3 is private'],
      ['http://172.16.0.1/hook', '172.16.0.1 is private'],
      ['http://172.31.255.255/hook', '172.31.255.255 is private'],
      ['http://192.168.1.1/hook', '192.168.1.1 is private'],
      ['http://3232235777/hook', '192.168.1.1 is private'],
      ['http://[fc00::1]/hook', '[fc00::1] is private (unique local)'],
      ['http://[fd12:3456::1]/hook', '[fd12:3456::1] is private (unique local)'],
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is link-local'],
      ['http://[fe80::1]/hook', '[fe80::1] is link-local'],
      ['http://100.64.0.1/hook', '100.64.0.1 is carrier-grade NAT'],
      ['http://100.127.255.254/hook', '100.127.255.254 is carrier-grade NAT'],
      ['http://0.0.0.0/hook', '0.0.0.0 is unspecified'],
      ['http://0/hook', '0.0.0.0 is unspecified'],
      ['http://[::]/hook', '[::] is unspecified'],
      ['http://255.255.255.255/hook', '255.255.255.255 is broadcast'],
      ['http://224.0.0.1/hook', '224.0.0.1 is multicast'],
      ['http://239.255.255.250/hook', '239.255.255.250 is multicast'],
      ['http://[ff02::1]/hook', '[ff02::1] is multicast'],
      ['http://240.0.0.1/hook', '240.0.0.1 is reserved'],
      ['http://192.0.2.1/hook', '192.0.2.1 is reserved'],
      ['http://198.18.0.1/hook', '198.18.0.1 is reserved'],
      ['http://[2001:db8::1]/hook', '[2001:db8::1] is reserved'],
    ];
    for (const [url, problem] of cases) {
      it(`refuses ${url}`, () =>
        assert.equal(reason(url), `webhookUrl must not point to a non-public address (${problem})`));
    }
  });

  describe('local names', () => {
    for (const url of [
      'http://localhost/hook',
      'http://LOCALHOST./hook',
      'http://api.localhost/hook',
      'http://printer.local/hook',
      'http://service.internal/hook',
      'http://svc.cluster.localdomain/hook',
      'http://nas.home.arpa/hook',
      'http://router.lan/hook',
    ]) {
      it(`refuses ${url}`, () =>
        assert.match(reason(url), /^webhookUrl must not point to a local or internal host name \(.+\)$/));
    }
    for (const url of ['http://wiki/hook', 'https://hooks:8443/x', 'http://metadata/computeMetadata']) {
      it(`refuses the single-label name in ${url}`, () =>
        assert.match(
          reason(url),
          /^webhookUrl must use a fully qualified public host name \(\w+ is a single label\)$/,
        ));
    }
  });

  describe('malformed and special-use host names, port 0', () => {
    it('refuses empty, overlong and badly spelled labels', () => {
      for (const url of [
        'http://.example.com/h',
        'http://example..com/h',
        'http://-.com/h',
        'http://a-.example.com/h',
        'http://-a.example.com/h',
        'http://under_score.example.com/h',
        `http://${'a'.repeat(64)}.com/h`,
        `http://${'abcdefghi.'.repeat(26)}com/h`,
      ]) {
        assert.equal(
          reason(url),
          'webhookUrl must have a well-formed host name (labels of letters, digits and inner hyphens, none empty)',
          url,
        );
      }
    });

    it('refuses special-use domains that never resolve publicly', () => {
      for (const url of [
        'https://hooks.test/h',
        'https://x.invalid/h',
        'https://abc.onion/h',
        'https://hooks.example/h',
        'https://a.alt/h',
        'https://a.b.TEST./h',
      ]) {
        assert.match(
          reason(url),
          /^webhookUrl must not use a special-use domain that never resolves publicly \(.+\)$/,
          url,
        );
      }
      assert.match(reason('https://app.localhost/h'), /local or internal host name/);
    });

    it('refuses port 0, even on an allowlisted host', () => {
      assert.equal(reason('https://hooks.example.com:0/h'), 'webhookUrl must not use port 0');
      assert.equal(reason('http://127.0.0.1:0/h', ['127.0.0.1']), 'webhookUrl must not use port 0');
    });
  });

  describe('schemes, credentials and malformed URLs', () => {
    it('refuses schemes other than http and https', () => {
      for (const url of [
        'ftp://example.com/hook',
        'file:///etc/passwd',
        'gopher://example.com/',
        'javascript:alert(1)',
        'ws://example.com/hook',
      ]) {
        assert.equal(reason(url), 'webhookUrl must use http:// or https://', url);
      }
    });

    it('refuses credentials in the URL', () => {
      for (const url of [
        'https://user:pass@example.com/hook',
        'https://user@example.com/hook',
        'https://:secret@example.com/hook',
      ]) {
        assert.equal(reason(url), 'webhookUrl must not contain credentials', url);
      }
    });

    it('refuses what is not an absolute URL', () => {
      for (const url of [
        'not a url',
        '/relative',
        'http://',
        'http://[::1/hook',
        'http://999.1.1.1/hook',
        'http://[fe80::1%25eth0]/hook',
      ]) {
        assert.equal(reason(url), 'webhookUrl must be an absolute http:// or https:// URL', url);
      }
    });
  });

  describe('public destinations', () => {
    it('accepts public addresses and names, whether they resolve now or not', () => {
      for (const url of [
        'https://example.com/hooks/video',
        'https://hooks.example.com:8443/h?x=1',
        'http://93.184.216.34:8080/h',
        'http://1.1.1.1/h',
        'https://[2606:4700:4700::1111]/h',
        'https://[::ffff:8.8.8.8]/h',
        'https://hooks.does-not-resolve.example.net/x',
        'https://xn--bcher-kva.example.org/hook',
        'https://a-b.c0.example.com/hook',
        'https://example.com./hook',
        // A public name may resolve to a private address; that is caught at delivery, not here.
        'http://127.0.0.1.nip.io/hook',
      ]) {
        assert.deepEqual(checkWebhookUrl(url), { ok: true }, url);
      }
    });
  });

  describe('the operator allowlist', () => {
    it('is empty by default', () => {
      assert.equal(checkWebhookUrl('http://127.0.0.1:9999/h').ok, false);
    });

    it('exempts a host:port, default ports included', () => {
      assert.deepEqual(checkWebhookUrl('http://127.0.0.1:9999/h', { allowHosts: ['127.0.0.1:9999'] }), { ok: true });
      assert.equal(checkWebhookUrl('http://127.0.0.1:9998/h', { allowHosts: ['127.0.0.1:9999'] }).ok, false);
      assert.deepEqual(checkWebhookUrl('http://127.0.0.1/h', { allowHosts: ['127.0.0.1:80'] }), { ok: true });
      assert.deepEqual(checkWebhookUrl('https://receiver.internal/h', { allowHosts: ['receiver.internal:443'] }), {
        ok: true,
      });
    });

    it('exempts a host on any port, names and bracketed IPv6 included, in any letter case', () => {
      assert.deepEqual(checkWebhookUrl('http://localhost:4000/h', { allowHosts: ['LocalHost'] }), { ok: true });
      assert.deepEqual(checkWebhookUrl('http://[::1]:4000/h', { allowHosts: ['[::1]'] }), { ok: true });
      assert.deepEqual(checkWebhookUrl('http://[::1]:4000/h', { allowHosts: ['[::1]:4000'] }), { ok: true });
      assert.equal(checkWebhookUrl('http://127.0.0.2:4000/h', { allowHosts: ['127.0.0.1'] }).ok, false);
    });

    it('still refuses other schemes and credentials', () => {
      assert.equal(reason('ftp://127.0.0.1:9999/h', ['127.0.0.1:9999']), 'webhookUrl must use http:// or https://');
      assert.equal(
        reason('http://u:p@127.0.0.1:9999/h', ['127.0.0.1:9999']),
        'webhookUrl must not contain credentials',
      );
    });
  });

  describe('isPublicAddress, for the address a delivery connects to', () => {
    it('accepts public unicast addresses', () => {
      for (const ip of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8', '[2001:4860:4860::8888]'])
        assert.equal(isPublicAddress(ip), true, ip);
    });

    it('refuses every non-public range', () => {
      for (const ip of [
        '127.0.0.1',
        '10.0.0.8',
        '172.16.5.4',
        '192.168.0.1',
        '169.254.169.254',
        '100.64.0.1',
        '0.0.0.0',
        '255.255.255.255',
        '224.0.0.251',
        '240.0.0.1',
        '192.0.0.8',
        '::1',
        '::',
        'fe80::1',
        'fe80::1%eth0',
        'fc00::1',
        'fd00::1',
        'ff02::1',
        '::ffff:192.168.0.1',
        '::ffff:127.0.0.1',
        '::7f00:1',
        '64:ff9b::a00:1',
        '2002:a00:1::',
        '2001:db8::1',
      ]) {
        assert.equal(isPublicAddress(ip), false, ip);
      }
    });

    it('refuses what is not an address a resolver returns', () => {
      for (const text of ['garbage', '', 'example.com', '127.1', '2130706433', '0x7f.0.0.1', '1.2.3.4.5'])
        assert.equal(isPublicAddress(text), false, text);
    });
  });
});
