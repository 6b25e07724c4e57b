import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { FIXTURE_VIDEOS } from '../fixtures/platform/fixture-platform.js';
import { screenshot } from '../support/browser.js';
import { consoleInChromium } from '../support/console-in-chromium.js';
import { rawRequest } from '../support/raw-http.js';
import { waitFor } from '../support/wait-for.js';
import { type WebhookReceiver, startWebhookReceiver } from '../support/webhook-receiver.js';

for (const mode of ['server', 'embedded'] as const) {
  describe(`web console in Chromium (${mode} mode)`, function () {
    this.timeout(180_000);
    // One download at a time, so a second job waits in the queue behind a slow one.
    // Webhooks may go to a receiver on loopback.
    const web = consoleInChromium({
      label: 'console',
      screenshots: mode,
      embedded: mode === 'embedded',
      env: { WORKER_CONCURRENCY: '1', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    });
    let receiver: WebhookReceiver | undefined;
    after(async () => {
      await receiver?.stop();
    });

    const jobIdsListed = () =>
      web.page.locator('#job-list li').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-job-id')));
    const balanceUsed = (feature: string) =>
      web.page.locator(`#balances li[data-feature="${feature}"]`).getAttribute('data-used');

    it('serves the console at / with a Content-Security-Policy that allows no inline script, and keeps API routes as they were', async () => {
      const response = await fetch(`${web.service.url}/`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      const policy = response.headers.get('content-security-policy') ?? '';
      assert.match(policy, /script-src 'self'(;|$)/);
      assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
      const html = await response.text();
      assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
      const script = await fetch(`${web.service.url}/console/main.js`);
      assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
      // Sent raw: fetch() adds Cache-Control: no-cache to a conditional request, which rightly gets the whole file.
      assert.equal(
        (
          await rawRequest(web.service.url, 'GET', '/console/main.js', {
            'If-None-Match': script.headers.get('etag') ?? '',
          })
        ).status,
        304,
      );
      assert.equal((await fetch(`${web.service.url}/console/..%2Fpackage.json`)).status, 404);
      assert.equal((await fetch(`${web.service.url}/healthz`)).status, 200);
      assert.equal((await web.call('GET', '/api/v2/me')).status, 401);
      assert.equal((await fetch(`${web.service.url}/api/v2/openapi.json`)).status, 200);
    });

    it('signs in with a key kept in the tab only, and shows the plan and balances as bars with the renewal date', async () => {
      const { apiKey } = await web.service.createAccount({
        planId: 'starter',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
      });
      await web.page.goto(`${web.service.url}/`);
      await web.page.getByLabel('API key').waitFor();
      await screenshot(web.page, `${mode}-sign-in`);
      await web.signIn(apiKey);
      assert.match(
        await web.page.locator('#plan').innerText(),
        /Ada Lovelace .*plan starter, renews .* · 0 of 10 subscriptions$/,
      );
      assert.equal(await web.page.locator('#balances meter').count(), 3, 'downloads, bandwidth and info');
      assert.equal(await balanceUsed('download_count'), '0');
      assert.equal(await web.page.evaluate(() => sessionStorage.getItem('vds.apiKey')), apiKey);
      assert.equal(await web.page.evaluate(() => document.cookie), '');
      assert.ok(!web.page.url().includes(apiKey));
      assert.deepEqual(await web.browser.context.cookies(), []);

      // On a phone's width everything fits one column: nothing scrolls sideways.
      await web.page.setViewportSize({ width: 390, height: 844 });
      assert.ok(
        await web.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        'no sideways scrolling on a phone',
      );
      await screenshot(web.page, `${mode}-phone`);
      await web.page.setViewportSize({ width: 1100, height: 900 });

      // A reload keeps the tab signed in; signing out forgets the key.

      await web.page.reload();
      await web.page.locator('#balances li').first().waitFor();
      await web.page.getByRole('button', { name: 'Sign out' }).click();
      await web.page.getByLabel('API key').waitFor();
      assert.equal(await web.page.evaluate(() => sessionStorage.getItem('vds.apiKey')), null);
    });

    it('refuses a bad key beside the key field', async () => {
      web.consoleWatch.allowFailedResponse(401);
      await web.page.goto(`${web.service.url}/`);
      // By keyboard alone: the key field has the focus, Enter submits.
      await web.page.locator('#api-key:focus').waitFor();
      await web.page.keyboard.type('vds_not-a-key');
      await web.page.keyboard.press('Enter');
      await web.page
        .locator('#api-key-error')
        .filter({ hasText: /refused/ })
        .waitFor();
      assert.equal(await web.page.getByLabel('API key').getAttribute('aria-invalid'), 'true');
      assert.equal(await web.page.evaluate(() => sessionStorage.getItem('vds.apiKey')), null);
    });

    it("shows the API's own message beside the URL field for a bad URL", async () => {
      web.consoleWatch.allowFailedResponse(400);
      const { apiKey } = await web.service.createAccount();
      await web.signIn(apiKey);
      await web.page.getByLabel('Video URL').fill('https://video.invalid/watch?v=abc');
      await web.page.getByRole('button', { name: 'Download' }).click();
      const error = web.page.locator('#error-url');
      await error.filter({ hasText: /^url must be a video URL/ }).waitFor();
      const refused = await web.call('POST', '/api/v2/download', {
        key: apiKey,
        json: { url: 'https://video.invalid/watch?v=abc' },
      });
      assert.equal(await error.innerText(), refused.body.error, 'the API message, word for word');
      assert.equal(await web.page.getByLabel('Video URL').getAttribute('aria-invalid'), 'true');
      assert.equal(await web.page.locator('#error-form').innerText(), '');
      await screenshot(web.page, `${mode}-field-error`);
    });

    it('submits a download, follows it to COMPLETED, serves the file and updates the balance', async () => {
      const { apiKey } = await web.service.createAccount({ planId: 'starter' });
      await web.signIn(apiKey);
      await web.page.getByLabel('Video URL').fill(web.platform.watchUrl(FIXTURE_VIDEOS.slow.id));
      await web.page.getByLabel('Format').selectOption('360');
      await web.page.getByRole('button', { name: 'Download' }).click();
      const [jobId] = await waitFor('the job is listed', async () => {
        const ids = await jobIdsListed();
        return ids.length === 1 ? ids : null;
      });
      assert.ok(jobId);
      const status = web.page.locator(`#job-list li[data-job-id="${jobId}"] [data-job-status]`);
      const bar = web.page.locator(`progress[data-job-progress="${jobId}"]`);
      await waitFor(
        'the row shows the job running',
        async () => (await status.getAttribute('data-job-status')) === 'IN_PROGRESS',
      );
      // The bar moves: a part done, then more (or the end).
      const barValue = () =>
        bar.evaluate((element) =>
          (element as HTMLProgressElement).position === -1 ? null : (element as HTMLProgressElement).value,
        );
      const partDone = await waitFor('the bar shows a part done', async () => {
        const value = await barValue();
        return value !== null && value > 0 && value < 100 ? value : null;
      });
      await waitFor('the bar moves on', async () => ((await barValue()) ?? 0) > partDone);
      await screenshot(web.page, `${mode}-jobs`);
      await waitFor(
        'the row shows the job completed',
        async () => (await status.getAttribute('data-job-status')) === 'COMPLETED',
        120_000,
      );
      assert.equal(await bar.evaluate((element) => (element as HTMLProgressElement).value), 100);
      await waitFor('the balance counts the download', async () => (await balanceUsed('download_count')) === '1');

      // The list filters by status.
      await web.service.settle();
      await web.page.getByLabel('Show').selectOption('IN_QUEUE');
      await web.page.locator('#jobs-empty').waitFor();
      await web.page.getByLabel('Show').selectOption('COMPLETED');
      await web.page.locator(`#job-list li[data-job-id="${jobId}"]`).waitFor();

      await web.page.locator(`#job-list li[data-job-id="${jobId}"] a`).click();
      await web.page.locator('#download-link').waitFor();
      assert.equal(await web.page.locator('#cancel-job').count(), 0, 'an ended job has nothing to cancel');
      await web.page.locator('#webhook-attempts p').waitFor();
      await screenshot(web.page, `${mode}-job`);
      const [download] = await Promise.all([
        web.page.waitForEvent('download'),
        web.page.locator('#download-link').click(),
      ]);
      const saved = await download.path();
      const polled = await web.call('GET', `/api/v2/download/${jobId}`, { key: apiKey });
      assert.equal((await readFile(saved)).length, polled.body.fileSize);
    });

    it('cancels a queued job from its page, and shows the webhook it sent', async () => {
      receiver = await startWebhookReceiver(() => ({ status: 204 }));
      const { apiKey } = await web.service.createAccount({ planId: 'starter' });
      const running = await web.submit(apiKey, FIXTURE_VIDEOS.slow.id);
      await waitFor('the slow job runs', async () => (await web.statusOf(apiKey, running)) === 'IN_PROGRESS');
      const queued = await web.submit(apiKey, FIXTURE_VIDEOS.clip.id, { webhookUrl: receiver.url() });
      await web.signIn(apiKey);
      await web.page.goto(`${web.service.url}/#/jobs/${queued}`);
      await web.page.locator('#job-status-detail').filter({ hasText: 'In queue' }).waitFor();
      await web.page.getByRole('button', { name: 'Cancel this job' }).click();
      await web.page.getByRole('button', { name: 'Yes, cancel it' }).click();
      await web.page.locator('#job-status-detail').filter({ hasText: 'Cancelled' }).waitFor();
      assert.equal(await web.page.locator('#cancel-job').count(), 0);
      await waitFor('a poll shows the job failed', async () => (await web.statusOf(apiKey, queued)) === 'FAILED');
      // The download.failed webhook's attempt shows up in the job's history while the page is open.
      await web.page.locator('#webhook-attempts td').filter({ hasText: 'HTTP 204' }).waitFor({ timeout: 60_000 });
      await screenshot(web.page, `${mode}-cancelled`);
      assert.equal((await web.call('DELETE', `/api/v2/download/${running}`, { key: apiKey })).status, 200);
    });
  });
}

describe('web console in Chromium when the service refuses event streams', function () {
  this.timeout(180_000);
  // One stream per key: a list with two unfinished jobs gets one stream and one 429.
  const web = consoleInChromium({
    label: 'console_streams',
    screenshots: 'streams',
    env: { WORKER_CONCURRENCY: '1', EVENT_STREAMS_PER_KEY: '1' },
  });

  it('follows the refused job by polling, and both rows reach their end', async () => {
    web.consoleWatch.allowFailedResponse(429);
    const { apiKey } = await web.service.createAccount({ planId: 'starter' });
    const jobIds = [await web.submit(apiKey, FIXTURE_VIDEOS.slow.id), await web.submit(apiKey, FIXTURE_VIDEOS.clip.id)];
    await web.service.settle();
    await web.signIn(apiKey);
    for (const jobId of jobIds) {
      const status = web.page.locator(`#job-list li[data-job-id="${jobId}"] [data-job-status]`);
      await waitFor(
        `job ${jobId} shows COMPLETED`,
        async () => (await status.count()) === 1 && (await status.getAttribute('data-job-status')) === 'COMPLETED',
        120_000,
      );
    }
    assert.ok(web.consoleWatch.sawFailedResponse(429), 'a stream was refused');
  });
});
