import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type ConsoleWatch, type TestBrowser, launchChromium, screenshot, watchConsole } from '../support/browser.js';
import { rawRequest } from '../support/raw-http.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { type WebhookReceiver, startWebhookReceiver } from '../support/webhook-receiver.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result !== undefined && result !== null && result !== false) return result;
    assert.ok(Date.now() < deadline, `timed out waiting until ${what}`);
    await sleep(100);
  }
}

for (const mode of ['server', 'embedded'] as const) {
  describe(`web console in Chromium (${mode} mode)`, function () {
    this.timeout(180_000);
    let platform: FixturePlatform;
    let service: TestService;
    let browser: TestBrowser;
    let page: Page;
    let consoleWatch: ConsoleWatch;
    let call: ReturnType<typeof apiClient>;
    let receiver: WebhookReceiver | undefined;

    before(async () => {
      platform = await startFixturePlatform();
      // One download at a time, so a second job waits in the queue behind a slow one.
      // Webhooks may go to a receiver on loopback.
      service = await startTestService({
        label: 'console',
        embedded: mode === 'embedded',
        env: { ...serviceEnvFor(platform), WORKER_CONCURRENCY: '1', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
      });
      call = apiClient(service.url);
      browser = await launchChromium();
    });
    after(async () => {
      await receiver?.stop();
      await browser?.close();
      await service?.stop();
      await platform?.stop();
    });
    beforeEach(async () => {
      page = await browser.context.newPage();
      consoleWatch = watchConsole(page);
    });
    afterEach(async function () {
      if (this.currentTest?.state === 'failed') await screenshot(page, `${mode}-failed`);
      await page.close();
      assert.deepEqual(consoleWatch.errors(), [], 'the browser console shows no errors');
    });

    async function signIn(apiKey: string): Promise<void> {
      await page.goto(`${service.url}/`);
      await page.getByLabel('API key').fill(apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('#balances li').first().waitFor();
    }

    const jobIdsListed = () =>
      page.locator('#job-list li').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-job-id')));
    const balanceUsed = (feature: string) =>
      page.locator(`#balances li[data-feature="${feature}"]`).getAttribute('data-used');

    it('serves the console at / with a Content-Security-Policy that allows no inline script, and keeps API routes as they were', async () => {
      const response = await fetch(`${service.url}/`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      const policy = response.headers.get('content-security-policy') ?? '';
      assert.match(policy, /script-src 'self'(;|$)/);
      assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
      const html = await response.text();
      assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
      const script = await fetch(`${service.url}/console/main.js`);
      assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
      // Sent raw: fetch() adds Cache-Control: no-cache to a conditional request, which rightly gets the whole file.
      assert.equal(
        (
          await rawRequest(service.url, 'GET', '/console/main.js', {
            'If-None-Match': script.headers.get('etag') ?? '',
          })
        ).status,
        304,
      );
      assert.equal((await fetch(`${service.url}/console/..%2Fpackage.json`)).status, 404);
      assert.equal((await fetch(`${service.url}/healthz`)).status, 200);
      assert.equal((await call('GET', '/api/v2/me')).status, 401);
      assert.equal((await fetch(`${service.url}/api/v2/openapi.json`)).status, 200);
    });

    it('signs in with a key kept in the tab only, and shows the plan and balances as bars with the renewal date', async () => {
      const { apiKey } = await service.createAccount({
        planId: 'starter',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
      });
      await page.goto(`${service.url}/`);
      await page.getByLabel('API key').waitFor();
      await screenshot(page, `${mode}-sign-in`);
      await signIn(apiKey);
      assert.match(await page.locator('#plan').innerText(), /Ada Lovelace .*plan starter, renews /);
      assert.equal(await page.locator('#balances meter').count(), 3, 'downloads, bandwidth and info');
      assert.equal(await balanceUsed('download_count'), '0');
      assert.equal(await page.evaluate(() => sessionStorage.getItem('vds.apiKey')), apiKey);
      assert.equal(await page.evaluate(() => document.cookie), '');
      assert.ok(!page.url().includes(apiKey));
      assert.deepEqual(await browser.context.cookies(), []);

      // On a phone's width everything fits one column: nothing scrolls sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        'no sideways scrolling on a phone',
      );
      await screenshot(page, `${mode}-phone`);
      await page.setViewportSize({ width: 1100, height: 900 });

      // A reload keeps the tab signed in; signing out forgets the key.

      await page.reload();
      await page.locator('#balances li').first().waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').waitFor();
      assert.equal(await page.evaluate(() => sessionStorage.getItem('vds.apiKey')), null);
    });

    it('refuses a bad key beside the key field', async () => {
      consoleWatch.allowFailedResponse(401);
      await page.goto(`${service.url}/`);
      // By keyboard alone: the key field has the focus, Enter submits.
      await page.locator('#api-key:focus').waitFor();
      await page.keyboard.type('vds_not-a-key');
      await page.keyboard.press('Enter');
      await page
        .locator('#api-key-error')
        .filter({ hasText: /refused/ })
        .waitFor();
      assert.equal(await page.getByLabel('API key').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.evaluate(() => sessionStorage.getItem('vds.apiKey')), null);
    });

    it("shows the API's own message beside the URL field for a bad URL", async () => {
      consoleWatch.allowFailedResponse(400);
      const { apiKey } = await service.createAccount();
      await signIn(apiKey);
      await page.getByLabel('Video URL').fill('https://video.invalid/watch?v=abc');
      await page.getByRole('button', { name: 'Download' }).click();
      const error = page.locator('#error-url');
      await error.filter({ hasText: /^url must be a video URL/ }).waitFor();
      const refused = await call('POST', '/api/v2/download', {
        key: apiKey,
        json: { url: 'https://video.invalid/watch?v=abc' },
      });
      assert.equal(await error.innerText(), refused.body.error, 'the API message, word for word');
      assert.equal(await page.getByLabel('Video URL').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.locator('#error-form').innerText(), '');
      await screenshot(page, `${mode}-field-error`);
    });

    it('submits a download, follows it to COMPLETED, serves the file and updates the balance', async () => {
      const { apiKey } = await service.createAccount({ planId: 'starter' });
      await signIn(apiKey);
      await page.getByLabel('Video URL').fill(platform.watchUrl(FIXTURE_VIDEOS.slow.id));
      await page.getByLabel('Format').selectOption('360');
      await page.getByRole('button', { name: 'Download' }).click();
      const [jobId] = await waitFor('the job is listed', async () => {
        const ids = await jobIdsListed();
        return ids.length === 1 ? ids : null;
      });
      assert.ok(jobId);
      const status = page.locator(`#job-list li[data-job-id="${jobId}"] [data-job-status]`);
      const bar = page.locator(`progress[data-job-progress="${jobId}"]`);
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
      await screenshot(page, `${mode}-jobs`);
      await waitFor(
        'the row shows the job completed',
        async () => (await status.getAttribute('data-job-status')) === 'COMPLETED',
        120_000,
      );
      assert.equal(await bar.evaluate((element) => (element as HTMLProgressElement).value), 100);
      await waitFor('the balance counts the download', async () => (await balanceUsed('download_count')) === '1');

      // The list filters by status.
      await service.settle();
      await page.getByLabel('Show').selectOption('IN_QUEUE');
      await page.locator('#jobs-empty').waitFor();
      await page.getByLabel('Show').selectOption('COMPLETED');
      await page.locator(`#job-list li[data-job-id="${jobId}"]`).waitFor();

      await page.locator(`#job-list li[data-job-id="${jobId}"] a`).click();
      await page.locator('#download-link').waitFor();
      assert.equal(await page.locator('#cancel-job').count(), 0, 'an ended job has nothing to cancel');
      await page.locator('#webhook-attempts p').waitFor();
      await screenshot(page, `${mode}-job`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-link').click()]);
      const saved = await download.path();
      const polled = await call('GET', `/api/v2/download/${jobId}`, { key: apiKey });
      assert.equal((await readFile(saved)).length, polled.body.fileSize);
    });

    it('cancels a queued job from its page, and shows the webhook it sent', async () => {
      receiver = await startWebhookReceiver(() => ({ status: 204 }));
      const { apiKey } = await service.createAccount({ planId: 'starter' });
      const running = (
        await call('POST', '/api/v2/download', {
          key: apiKey,
          json: { url: platform.watchUrl(FIXTURE_VIDEOS.slow.id), format: 'audio' },
        })
      ).body.jobId;
      await waitFor(
        'the slow job runs',
        async () => (await call('GET', `/api/v2/download/${running}`, { key: apiKey })).body.status === 'IN_PROGRESS',
      );
      const queued = (
        await call('POST', '/api/v2/download', {
          key: apiKey,
          json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio', webhookUrl: receiver.url() },
        })
      ).body.jobId;
      await signIn(apiKey);
      await page.goto(`${service.url}/#/jobs/${queued}`);
      await page.locator('#job-status-detail').filter({ hasText: 'In queue' }).waitFor();
      await page.getByRole('button', { name: 'Cancel this job' }).click();
      await page.getByRole('button', { name: 'Yes, cancel it' }).click();
      await page.locator('#job-status-detail').filter({ hasText: 'Cancelled' }).waitFor();
      assert.equal(await page.locator('#cancel-job').count(), 0);
      await waitFor(
        'a poll shows the job failed',
        async () => (await call('GET', `/api/v2/download/${queued}`, { key: apiKey })).body.status === 'FAILED',
      );
      // The download.failed webhook's attempt shows up in the job's history while the page is open.
      await page.locator('#webhook-attempts td').filter({ hasText: 'HTTP 204' }).waitFor({ timeout: 60_000 });
      await screenshot(page, `${mode}-cancelled`);
      assert.equal((await call('DELETE', `/api/v2/download/${running}`, { key: apiKey })).status, 200);
    });
  });
}

describe('web console in Chromium when the service refuses event streams', function () {
  this.timeout(180_000);
  let platform: FixturePlatform;
  let service: TestService;
  let browser: TestBrowser;
  let call: ReturnType<typeof apiClient>;

  before(async () => {
    platform = await startFixturePlatform();
    // One stream per key: a list with two unfinished jobs gets one stream and one 429.
    service = await startTestService({
      label: 'console_streams',
      env: { ...serviceEnvFor(platform), WORKER_CONCURRENCY: '1', EVENT_STREAMS_PER_KEY: '1' },
    });
    call = apiClient(service.url);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await service?.stop();
    await platform?.stop();
  });

  it('follows the refused job by polling, and both rows reach their end', async () => {
    const page = await browser.context.newPage();
    const consoleWatch = watchConsole(page);
    consoleWatch.allowFailedResponse(429);
    const { apiKey } = await service.createAccount({ planId: 'starter' });
    const submit = async (id: string) =>
      (await call('POST', '/api/v2/download', { key: apiKey, json: { url: platform.watchUrl(id), format: 'audio' } }))
        .body.jobId as string;
    const jobIds = [await submit(FIXTURE_VIDEOS.slow.id), await submit(FIXTURE_VIDEOS.clip.id)];
    await service.settle();
    await page.goto(`${service.url}/`);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    for (const jobId of jobIds) {
      const status = page.locator(`#job-list li[data-job-id="${jobId}"] [data-job-status]`);
      await waitFor(
        `job ${jobId} shows COMPLETED`,
        async () => (await status.count()) === 1 && (await status.getAttribute('data-job-status')) === 'COMPLETED',
        120_000,
      );
    }
    await page.close();
    assert.ok(consoleWatch.sawFailedResponse(429), 'a stream was refused');
    assert.deepEqual(consoleWatch.errors(), [], 'no errors but the refused streams');
  });
});
