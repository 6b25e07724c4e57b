import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, type ConsoleMessage, type Page, chromium } from 'playwright-core';

/** Debian's Chromium, which the set-up installs; tests never download a browser of their own. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the browser tests save a screenshot of each page they visit (build/ is git-ignored). */
export const SCREENSHOT_DIRECTORY = path.resolve(__dirname, '..', '..', 'screenshots');

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A headless Chromium with a fresh profile that reaches nothing but what the page asks for. */
export async function launchChromium(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: run npm run setup, which installs Debian's chromium package`);
  const profile = await mkdtemp(path.join(tmpdir(), 'vds-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1100, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export interface ConsoleWatch {
  /** Errors the page logged or threw, less the refusals a test provoked on purpose. */
  errors(): string[];
  /** Expects the browser's own line about a failed response with this status (an API refusal the test asked for). */
  allowFailedResponse(status: number): void;
  /** Whether the browser reported a failed response with this status. */
  sawFailedResponse(status: number): boolean;
}

/** Collects the page's console errors and uncaught exceptions; a test asserts none happened. */
export function watchConsole(page: Page): ConsoleWatch {
  const errors: string[] = [];
  const allowed = new Set<number>();
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  const failedStatus = (error: string) => {
    const failed = /Failed to load resource: the server responded with a status of (\d+)/.exec(error);
    return failed === null ? null : Number(failed[1]);
  };
  return {
    errors: () =>
      errors.filter((error) => {
        const status = failedStatus(error);
        return status === null || !allowed.has(status);
      }),
    sawFailedResponse: (status) => errors.some((error) => failedStatus(error) === status),
    allowFailedResponse: (status) => allowed.add(status),
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIRECTORY, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIRECTORY, `${name}.png`), fullPage: true });
}
