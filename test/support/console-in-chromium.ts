import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { type FixturePlatform, serviceEnvFor, startFixturePlatform } from '../fixtures/platform/fixture-platform.js';
import { apiClient } from './api-client.js';
import { type ConsoleWatch, type TestBrowser, launchChromium, screenshot, watchConsole } from './browser.js';
import { type TestService, startTestService } from './test-service.js';

export interface ConsoleSetup {
  /** Names the service's database. */
  label: string;
  /** What the screenshot of a failed test is called, before "-failed". */
  screenshots: string;
  embedded?: boolean;
  /** Settings beside those that point the service at the fixture platform. */
  env?: Record<string, string>;
}

/** What a test of the web console drives: the service on the fixture platform, a Chromium, and this test's page. */
export class ConsoleInChromium {
  platform!: FixturePlatform;
  service!: TestService;
  browser!: TestBrowser;
  call!: ReturnType<typeof apiClient>;
  /** A fresh page for each test; its console errors fail the test. */
  page!: Page;
  consoleWatch!: ConsoleWatch;

  async signIn(apiKey: string): Promise<void> {
    await this.page.goto(`${this.service.url}/`);
    await this.page.getByLabel('API key').fill(apiKey);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
    await this.page.locator('#balances li').first().waitFor();
  }

  /** Submits an audio download of a fixture video through the API; answers its job id. */
  async submit(apiKey: string, videoId: string, more: Record<string, unknown> = {}): Promise<string> {
    const url = this.platform.watchUrl(videoId);
    const response = await this.call('POST', '/api/v2/download', {
      key: apiKey,
      json: { url, format: 'audio', ...more },
    });
    return response.body.jobId as string;
  }

  async statusOf(apiKey: string, jobId: string): Promise<string> {
    return (await this.call('GET', `/api/v2/download/${jobId}`, { key: apiKey })).body.status as string;
  }
}

/** Sets a ConsoleInChromium up around the tests of the describe it is called in, and tears it down after them. */
export function consoleInChromium(setup: ConsoleSetup): ConsoleInChromium {
  const web = new ConsoleInChromium();
  before(async () => {
    web.platform = await startFixturePlatform();
    web.service = await startTestService({
      label: setup.label,
      embedded: setup.embedded,
      env: { ...serviceEnvFor(web.platform), ...setup.env },
    });
    web.call = apiClient(web.service.url);
    web.browser = await launchChromium();
  });
  after(async () => {
    await web.browser?.close();
    await web.service?.stop();
    await web.platform?.stop();
  });
  beforeEach(async () => {
    web.page = await web.browser.context.newPage();
    web.consoleWatch = watchConsole(web.page);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(web.page, `${setup.screenshots}-failed`);
    await web.page.close();
    assert.deepEqual(web.consoleWatch.errors(), [], 'the browser console shows no errors');
  });
  return web;
}
