import assert from 'node:assert/strict';
import { type TestService, startTestService } from '../support/test-service.js';

describe('the yt-dlp version in /readyz and /metrics', function () {
  this.timeout(60_000);
  let service: TestService;
  before(async () => {
    service = await startTestService({ label: 'ytdlpversion', roles: ['api'] });
  });
  after(async () => service?.stop());

  it('shows the version detected at start-up', async () => {
    const ready = await (await fetch(`${service.url}/readyz`)).json();
    assert.match(ready.details.ytDlp.version, /^\d{4}\.\d{2}\.\d{2}/);
    assert.equal(ready.details.ytDlp.channel, 'stable');
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    assert.ok(
      metrics.includes(`yt_dlp_info{version="${ready.details.ytDlp.version}",channel="stable"} 1`),
      'the metric names the version',
    );
  });
});
