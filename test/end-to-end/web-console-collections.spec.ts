import assert from 'node:assert/strict';
import { FIXTURE_GROWING_CHANNEL, FIXTURE_PLAYLIST } from '../fixtures/platform/fixture-list-catalog.js';
import { consoleInChromium } from '../support/console-in-chromium.js';

describe('web console in Chromium: a whole playlist as a batch, and subscriptions', function () {
  this.timeout(300_000);
  const web = consoleInChromium({ label: 'console_collections', screenshots: 'collections' });

  it('downloads a playlist from the batch form and follows the batch to completed, each video linked to its job', async () => {
    const { apiKey } = await web.service.createAccount({ planId: 'growth', addOns: ['channel_list'] });
    await web.signIn(apiKey);
    const { page } = web;
    web.consoleWatch.allowFailedResponse(400);
    await page.getByLabel('Playlist or channel URL').fill(web.platform.watchUrl('x'));
    await page.getByRole('button', { name: 'Start batch' }).click();
    await page
      .locator('#batch-source-error')
      .filter({ hasText: /playlistUrl|channelUrl/ })
      .waitFor();
    assert.equal(await page.getByLabel('Playlist or channel URL').getAttribute('aria-invalid'), 'true');

    await page.getByLabel('Playlist or channel URL').fill(web.platform.playlistUrl());
    await page.getByRole('button', { name: 'Start batch' }).click();
    await page.waitForURL(/#\/batches\//);
    await page.locator('#batch-fields dd', { hasText: /^completed$/ }).waitFor({ timeout: 240_000 });
    const titles = await page.locator('#batch-videos li a').allTextContents();
    assert.deepEqual(
      titles,
      FIXTURE_PLAYLIST.videos.map((video) => video.title),
    );
    assert.equal(await page.locator('#batch-videos li[data-video-status="completed"]').count(), 12);
    await page.locator('#batch-videos li a').first().click();
    await page.waitForURL(/#\/jobs\//);
    await page.locator('#job-title').waitFor();
    assert.equal(await page.locator('#batch').isHidden(), true);
  });

  it('adds a subscription, checks it now to find the new uploads, pauses and deletes it', async () => {
    const { apiKey } = await web.service.createAccount({ planId: 'growth', addOns: ['channel_list'] });
    await web.signIn(apiKey);
    const { page } = web;
    web.consoleWatch.allowFailedResponse(400);
    const source = page.getByLabel('Channel or playlist URL');
    await source.fill(web.platform.pageUrl(`/${FIXTURE_GROWING_CHANNEL.handle}`));
    await page.getByLabel('Check every (minutes)').fill('10');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page
      .locator('#subscription-checkEveryMinutes-error')
      .filter({ hasText: /checkEveryMinutes/ })
      .waitFor();

    await page.getByLabel('Check every (minutes)').fill('30');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const row = page.locator('#subscription-list li');
    await row.filter({ hasText: /every 30 min/ }).waitFor();
    await row.filter({ hasText: /last checked .*: 0 new/ }).waitFor({ timeout: 60_000 });

    for (let index = 0; index < 2; index += 1) web.platform.addUpload(FIXTURE_GROWING_CHANNEL.handle);
    await row.getByRole('button', { name: /^Check now/ }).click();
    await row.filter({ hasText: /: 2 new/ }).waitFor({ timeout: 60_000 });
    await row.filter({ hasText: /· 2 jobs/ }).waitFor({ timeout: 60_000 });

    await row.getByRole('button', { name: /^Pause/ }).click();
    await row.filter({ hasText: /paused/ }).waitFor();
    assert.equal(await row.getByRole('button', { name: /^Check now/ }).count(), 0);
    await row.getByRole('button', { name: /^Resume/ }).waitFor();
    await row.getByRole('button', { name: /^Delete/ }).click();
    await page.locator('#subscriptions-empty').waitFor({ state: 'visible' });
    assert.equal(await row.count(), 0);
  });
});
