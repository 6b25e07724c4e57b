import assert from 'node:assert/strict';
import type { Page, Route } from 'playwright-core';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type ConsoleWatch, type TestBrowser, launchChromium, screenshot, watchConsole } from '../support/browser.js';
import { type TestService, startTestService } from '../support/test-service.js';

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

/** Answers the API's JSON for the matching requests changed by `change`, as a service with such data would. */
async function rewriteJson(page: Page, pattern: RegExp, change: (body: Record<string, unknown>) => void) {
  await page.route(pattern, async (route: Route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    change(body);
    await route.fulfill({ response, json: body });
  });
}

describe('web console in Chromium: cancelling, messages, long titles, figures and signing out', function () {
  this.timeout(180_000);
  let platform: FixturePlatform;
  let service: TestService;
  let browser: TestBrowser;
  let page: Page;
  let consoleWatch: ConsoleWatch;
  let call: ReturnType<typeof apiClient>;

  before(async () => {
    platform = await startFixturePlatform();
    // One download at a time, so a second job waits in the queue behind a slow one.
    service = await startTestService({
      label: 'console_usability',
      env: { ...serviceEnvFor(platform), WORKER_CONCURRENCY: '1' },
    });
    call = apiClient(service.url);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await service?.stop();
    await platform?.stop();
  });
  beforeEach(async () => {
    page = await browser.context.newPage();
    consoleWatch = watchConsole(page);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(page, 'usability-failed');
    await page.close();
    assert.deepEqual(consoleWatch.errors(), [], 'the browser console shows no errors');
  });

  async function signIn(apiKey: string): Promise<void> {
    await page.goto(`${service.url}/`);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#balances li').first().waitFor();
  }

  const submit = async (apiKey: string, videoId: string) =>
    (
      await call('POST', '/api/v2/download', {
        key: apiKey,
        json: { url: platform.watchUrl(videoId), format: 'audio' },
      })
    ).body.jobId as string;
  const statusOf = async (apiKey: string, jobId: string) =>
    (await call('GET', `/api/v2/download/${jobId}`, { key: apiKey })).body.status as string;

  it('asks before cancelling a job, and then shows it as cancelled, not failed', async () => {
    const { apiKey } = await service.createAccount({ planId: 'starter' });
    const running = await submit(apiKey, FIXTURE_VIDEOS.slow.id);
    await waitFor('the slow job runs', async () => (await statusOf(apiKey, running)) === 'IN_PROGRESS');
    const queued = await submit(apiKey, FIXTURE_VIDEOS.clip.id);
    await signIn(apiKey);
    await page.goto(`${service.url}/#/jobs/${queued}`);
    await page.locator('#job-status-detail').filter({ hasText: 'In queue' }).waitFor();

    // The first click only asks; "No" leaves the job alone.
    await page.getByRole('button', { name: 'Cancel this job' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).waitFor();
    assert.match(await page.locator('#job-actions').innerText(), /Cancel this job\?/);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'confirm-cancel');
    assert.equal(await statusOf(apiKey, queued), 'IN_QUEUE', 'nothing was cancelled yet');
    await page.getByRole('button', { name: 'No, keep it' }).click();
    await page.getByRole('button', { name: 'Cancel this job' }).waitFor();
    assert.equal(await statusOf(apiKey, queued), 'IN_QUEUE');

    await page.getByRole('button', { name: 'Cancel this job' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    const detail = page.locator('#job-status-detail');
    await detail.filter({ hasText: 'Cancelled' }).waitFor();
    assert.equal(await detail.innerText(), 'Cancelled');
    assert.equal(await detail.getAttribute('class'), 'meta status-CANCELLED', 'not in the colour of a failure');
    await waitFor('a poll shows the job failed', async () => (await statusOf(apiKey, queued)) === 'FAILED');
    await screenshot(page, 'usability-cancelled');

    // The list says the same.
    await page.locator('#back').click();
    const row = page.locator(`#job-list li[data-job-id="${queued}"] [data-job-status]`);
    await row.waitFor();
    assert.equal(await row.innerText(), 'Cancelled');
    assert.equal((await call('DELETE', `/api/v2/download/${running}`, { key: apiKey })).status, 200);
  });

  it('clears "Download submitted." when the next submission is refused', async () => {
    consoleWatch.allowFailedResponse(400);
    const { apiKey } = await service.createAccount({ planId: 'starter' });
    await signIn(apiKey);
    await page.getByLabel('Video URL').fill(platform.watchUrl(FIXTURE_VIDEOS.clip.id));
    await page.getByRole('button', { name: 'Download' }).click();
    await page.locator('#notice').filter({ hasText: 'Download submitted.' }).waitFor();
    await page.getByLabel('Video URL').fill('https://video.invalid/watch?v=abc');
    await page.getByRole('button', { name: 'Download' }).click();
    await page
      .locator('#error-url')
      .filter({ hasText: /^url must be/ })
      .waitFor();
    assert.equal(await page.locator('#notice').innerText(), '', 'no word of the earlier submission');
    assert.ok(!(await page.locator('#notice').isVisible()));
  });

  it('groups the digits of large figures', async () => {
    const { apiKey } = await service.createAccount({ planId: 'starter' });
    await rewriteJson(page, /\/api\/v2\/me$/, (body) => {
      const balances = body.balances as Record<string, Record<string, unknown>>;
      Object.assign(balances.download_count, { granted: 5_000_000, used: 1, remaining: 4_999_999 });
    });
    await signIn(apiKey);
    const grouped = await page.evaluate(() => new Intl.NumberFormat().format(5_000_000));
    assert.notEqual(grouped, '5000000');
    const balance = await page.locator('#balances li[data-feature="download_count"]').innerText();
    assert.ok(balance.includes(`of ${grouped}`), balance);
    assert.ok(!balance.includes('5000000'), balance);
  });

  it('cuts a very long title to a line in the list and a few on its page, whole on hover', async () => {
    const { apiKey } = await service.createAccount({ planId: 'starter' });
    const jobId = await submit(apiKey, FIXTURE_VIDEOS.clip.id);
    await waitFor('the job completes', async () => (await statusOf(apiKey, jobId)) === 'COMPLETED');
    await service.settle();
    const title = `A very long title ${'word '.repeat(600)}`.trim();
    const withTitle = (job: Record<string, unknown>) => Object.assign(job, { title });
    await rewriteJson(page, /\/api\/v2\/downloads\?/, (body) => {
      for (const job of body.jobs as Record<string, unknown>[]) withTitle(job);
    });
    await rewriteJson(page, new RegExp(`/api/v2/download/${jobId}$`), withTitle);
    await signIn(apiKey);

    const link = page.locator(`#job-list li[data-job-id="${jobId}"] a.title`);
    await link.waitFor();
    assert.equal(await link.getAttribute('title'), title, 'the whole title on hover');
    const lineHeight = await link.evaluate((element) => Number.parseFloat(getComputedStyle(element).lineHeight));
    assert.ok((await link.evaluate((element) => element.getBoundingClientRect().height)) < lineHeight * 1.5);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));

    await link.click();
    const heading = page.locator('#job-title');
    await heading.filter({ hasText: 'A very long title' }).waitFor();
    assert.equal(await heading.getAttribute('title'), title);
    const headingLine = await heading.evaluate((element) => Number.parseFloat(getComputedStyle(element).lineHeight));
    assert.ok((await heading.evaluate((element) => element.getBoundingClientRect().height)) < headingLine * 3.5);
    const below = await page.locator('#job-fields').boundingBox();
    assert.ok(below !== null && below.y < 900, 'the job below the title is on the first screen');
  });

  it('leaves no job on the page and no job id in the address after signing out', async () => {
    const { apiKey } = await service.createAccount({ planId: 'starter' });
    const jobId = await submit(apiKey, FIXTURE_VIDEOS.clip.id);
    await service.settle();
    await signIn(apiKey);
    await page.locator(`#job-list li[data-job-id="${jobId}"]`).waitFor();
    await page.goto(`${service.url}/#/jobs/${jobId}`);
    await page.locator('#job-fields dt').first().waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    assert.equal(new URL(page.url()).hash, '', 'the address names no job');
    const left = await page.evaluate(
      (id) => ({
        rows: document.querySelectorAll('#job-list li').length,
        fields: document.querySelectorAll('#job-fields *').length,
        title: document.getElementById('job-title')?.textContent,
        plan: document.getElementById('plan')?.textContent,
        balances: document.querySelectorAll('#balances li').length,
        text: document.body.innerHTML.includes(id),
      }),
      jobId,
    );
    assert.deepEqual(left, { rows: 0, fields: 0, title: 'Job', plan: '', balances: 0, text: false });
  });
});
