import assert from 'node:assert/strict';
import { judgeEgress } from '../../../infrastructure/egress/egress-rule.js';

describe('the egress rule', () => {
  const target = (hostname: string, port = 443) => ({ hostname, port });

  it('given a target resolving to public addresses only, then it may be reached', () => {
    assert.deepEqual(
      judgeEgress(target('media.example.com'), ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'], []),
      { ok: true, allowListed: false },
    );
  });

  it('given any non-public address among the answers, then the target is refused, naming the address and its range', () => {
    const refusals: Array<[string[], RegExp]> = [
      [['127.0.0.1'], /127\.0\.0\.1, a loopback address/],
      [['93.184.216.34', '10.1.2.3'], /10\.1\.2\.3, a private address/],
      [['169.254.169.254'], /link-local/],
      [['100.64.0.1'], /carrier-grade NAT/],
      [['::1'], /loopback/],
      [['fd00::1'], /unique local/],
      [['::ffff:192.168.0.1'], /private/],
      [['0.0.0.0'], /unspecified/],
    ];
    for (const [addresses, reason] of refusals) {
      const decision = judgeEgress(target('media.example.com'), addresses, []);
      assert.equal(decision.ok, false, addresses.join());
      if (!decision.ok) assert.match(decision.reason, reason);
      if (!decision.ok)
        assert.match(decision.reason, /^media\.example\.com:443 resolves to .* and is not on EGRESS_ALLOW$/);
    }
    assert.deepEqual(judgeEgress(target('nowhere.example.com'), [], []), {
      ok: false,
      reason: 'nowhere.example.com:443 did not resolve',
    });
  });

  it('given an allow-list entry, then host alone allows every port and host:port only that port', () => {
    assert.deepEqual(judgeEgress(target('127.0.0.1', 8080), ['127.0.0.1'], ['127.0.0.1']), {
      ok: true,
      allowListed: true,
    });
    assert.deepEqual(judgeEgress(target('127.0.0.1', 8080), ['127.0.0.1'], ['127.0.0.1:9000']), {
      ok: false,
      reason: '127.0.0.1:8080 resolves to 127.0.0.1, a loopback address, and is not on EGRESS_ALLOW',
    });
    assert.deepEqual(judgeEgress(target('Platform.Local.', 9000), ['10.0.0.5'], ['platform.local:9000']), {
      ok: true,
      allowListed: true,
    });
    assert.deepEqual(judgeEgress(target('[::1]', 9000), ['::1'], ['[::1]:9000']), { ok: true, allowListed: true });
  });
});
