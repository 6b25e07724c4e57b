import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, type ConsoleMessage, type Page, chromium } from 'playwright-core';

/**
 * Debian's Chromium headless shell, which the set-up installs; tests never download a browser of their own. The
 * shell (Chromium's old headless mode, Playwright's own choice for headless runs) takes about a quarter of the CPU
 * of `/usr/bin/chromium --headless` for each context, page and navigation; CHROMIUM_PATH may name either.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

/** Where the browser tests save a screenshot of each page they visit (build/ is git-ignored). */
export const SCREENSHOT_DIRECTORY = path.resolve(__dirname, '..', '..', 'screenshots');

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

let running: Promise<Browser> | undefined;

/**
 * One headless Chromium for every spec file of a test process (a launch costs about 0.2 s of CPU, the first page more); each caller gets a
 * context of its own, which shares no cookies, storage or cache with another. It ends with the process.
 */
function sharedChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: run npm run setup, which installs Debian's chromium-headless-shell package`,
    );
  running ??= launchShared();
  return running;
}

function launchShared(): Promise<Browser> {
  const launching = chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
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
  // A browser that failed to start or has gone is launched again by the next caller.
  launching.then(
    (browser) => browser.on('disconnected', () => (running = undefined)),
    () => (running = undefined),
  );
  return launching;
}

/** A fresh browser context, reaching nothing but what the page asks for, in this process's Chromium. */
export async function launchChromium(): Promise<TestBrowser> {
  const browser = await sharedChromium();
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1100, height: 900 } });
  return { context, close: () => context.close() };
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
