import assert from 'node:assert/strict';
import type { Page, Route } from 'playwright-core';
import { FIXTURE_VIDEOS } from '../fixtures/platform/fixture-platform.js';
import { screenshot } from '../support/browser.js';
import { consoleInChromium } from '../support/console-in-chromium.js';
import { waitFor } from '../support/wait-for.js';

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
  // One download at a time, so a second job waits in the queue behind a slow one.
  const web = consoleInChromium({
    label: 'console_usability',
    screenshots: 'usability',
    env: { WORKER_CONCURRENCY: '1' },
  });

  it('asks before cancelling a job, and then shows it as cancelled, not failed', async () => {
    const { apiKey } = await web.service.createAccount({ planId: 'starter' });
    const running = await web.submit(apiKey, FIXTURE_VIDEOS.slow.id);
    await waitFor('the slow job runs', async () => (await web.statusOf(apiKey, running)) === 'IN_PROGRESS');
    const queued = await web.submit(apiKey, FIXTURE_VIDEOS.clip.id);
    await web.signIn(apiKey);
    await web.page.goto(`${web.service.url}/#/jobs/${queued}`);
    await web.page.locator('#job-status-detail').filter({ hasText: 'In queue' }).waitFor();

    // The first click only asks; "No" leaves the job alone.
    await web.page.getByRole('button', { name: 'Cancel this job' }).click();
    await web.page.getByRole('button', { name: 'Yes, cancel it' }).waitFor();
    assert.match(await web.page.locator('#job-actions').innerText(), /Cancel this job\?/);
    assert.equal(await web.page.evaluate(() => document.activeElement?.id), 'confirm-cancel');
    assert.equal(await web.statusOf(apiKey, queued), 'IN_QUEUE', 'nothing was cancelled yet');
    await web.page.getByRole('button', { name: 'No, keep it' }).click();
    await web.page.getByRole('button', { name: 'Cancel this job' }).waitFor();
    assert.equal(await web.statusOf(apiKey, queued), 'IN_QUEUE');

    await web.page.getByRole('button', { name: 'Cancel this job' }).click();
    await web.page.getByRole('button', { name: 'Yes, cancel it' }).click();
    const detail = web.page.locator('#job-status-detail');
    await detail.filter({ hasText: 'Cancelled' }).waitFor();
    assert.equal(await detail.innerText(), 'Cancelled');
    assert.equal(await detail.getAttribute('class'), 'meta status-CANCELLED', 'not in the colour of a failure');
    await waitFor('a poll shows the job failed', async () => (await web.statusOf(apiKey, queued)) === 'FAILED');
    await screenshot(web.page, 'usability-cancelled');

    // The list says the same.
    await web.page.locator('#back').click();
    const row = web.page.locator(`#job-list li[data-job-id="${queued}"] [data-job-status]`);
    await row.waitFor();
    assert.equal(await row.innerText(), 'Cancelled');
    assert.equal((await web.call('DELETE', `/api/v2/download/${running}`, { key: apiKey })).status, 200);
  });

  it('clears "Download submitted." when the next submission is refused', async () => {
    web.consoleWatch.allowFailedResponse(400);
    const { apiKey } = await web.service.createAccount({ planId: 'starter' });
    await web.signIn(apiKey);
    await web.page.getByLabel('Video URL').fill(web.platform.watchUrl(FIXTURE_VIDEOS.clip.id));
    await web.page.getByRole('button', { name: 'Download' }).click();
    await web.page.locator('#notice').filter({ hasText: 'Download submitted.' }).waitFor();
    await web.page.getByLabel('Video URL').fill('https://video.invalid/watch?v=abc');
    await web.page.getByRole('button', { name: 'Download' }).click();
    await web.page
      .locator('#error-url')
      .filter({ hasText: /^url must be/ })
      .waitFor();
    assert.equal(await web.page.locator('#notice').innerText(), '', 'no word of the earlier submission');
    assert.ok(!(await web.page.locator('#notice').isVisible()));
  });

  it('groups the digits of large figures', async () => {
    const { apiKey } = await web.service.createAccount({ planId: 'starter' });
    await rewriteJson(web.page, /\/api\/v2\/me$/, (body) => {
      const balances = body.balances as Record<string, Record<string, unknown>>;
      Object.assign(balances.download_count, { granted: 5_000_000, used: 1, remaining: 4_999_999 });
    });
    await web.signIn(apiKey);
    const grouped = await web.page.evaluate(() => new Intl.NumberFormat().format(5_000_000));
    assert.notEqual(grouped, '5000000');
    const balance = await web.page.locator('#balances li[data-feature="download_count"]').innerText();
    assert.ok(balance.includes(`of ${grouped}`), balance);
    assert.ok(!balance.includes('5000000'), balance);
  });

  it('cuts a very long title to a line in the list and a few on its page, whole on hover', async () => {
    const { apiKey } = await web.service.createAccount({ planId: 'starter' });
    const jobId = await web.submit(apiKey, FIXTURE_VIDEOS.clip.id);
    await waitFor('the job completes', async () => (await web.statusOf(apiKey, jobId)) === 'COMPLETED');
    await web.service.settle();
    const title = `A very long title ${'word '.repeat(600)}`.trim();
    const withTitle = (job: Record<string, unknown>) => Object.assign(job, { title });
    await rewriteJson(web.page, /\/api\/v2\/downloads\?/, (body) => {
      for (const job of body.jobs as Record<string, unknown>[]) withTitle(job);
    });
    await rewriteJson(web.page, new RegExp(`/api/v2/download/${jobId}$`), withTitle);
    await web.signIn(apiKey);

    const link = web.page.locator(`#job-list li[data-job-id="${jobId}"] a.title`);
    await link.waitFor();
    assert.equal(await link.getAttribute('title'), title, 'the whole title on hover');
    const lineHeight = await link.evaluate((element) => Number.parseFloat(getComputedStyle(element).lineHeight));
    assert.ok((await link.evaluate((element) => element.getBoundingClientRect().height)) < lineHeight * 1.5);
    assert.ok(await web.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));

    await link.click();
    const heading = web.page.locator('#job-title');
    await heading.filter({ hasText: 'A very long title' }).waitFor();
    assert.equal(await heading.getAttribute('title'), title);
    const headingLine = await heading.evaluate((element) => Number.parseFloat(getComputedStyle(element).lineHeight));
    assert.ok((await heading.evaluate((element) => element.getBoundingClientRect().height)) < headingLine * 3.5);
    const below = await web.page.locator('#job-fields').boundingBox();
    assert.ok(below !== null && below.y < 900, 'the job below the title is on the first screen');
  });

  it('leaves no job on the page and no job id in the address after signing out', async () => {
    const { apiKey } = await web.service.createAccount({ planId: 'starter' });
    const jobId = await web.submit(apiKey, FIXTURE_VIDEOS.clip.id);
    await web.service.settle();
    await web.signIn(apiKey);
    await web.page.locator(`#job-list li[data-job-id="${jobId}"]`).waitFor();
    await web.page.goto(`${web.service.url}/#/jobs/${jobId}`);
    await web.page.locator('#job-fields dt').first().waitFor();

    await web.page.getByRole('button', { name: 'Sign out' }).click();
    await web.page.getByLabel('API key').waitFor();
    assert.equal(new URL(web.page.url()).hash, '', 'the address names no job');
    const left = await web.page.evaluate(
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
