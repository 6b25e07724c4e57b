import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type FixturePlatform, serviceEnvFor } from '../fixtures/platform/fixture-platform.js';
import { waitFor } from '../support/wait-for.js';
import { envArgs, logsOf, podmanOk } from './podman.js';

/** Where a container finds the fixture platform's extractor plugin. */
const PLUGIN_MOUNT = '/fixture-plugins';

/**
 * `podman run` options that point a container's service at the fixture platform on this machine's loopback: the
 * host's network (so 127.0.0.1 is the host's), the platform's settings, its extractor plugin mounted read-only.
 */
export async function fixturePlatformOptions(platform: FixturePlatform): Promise<string[]> {
  // mkdtemp made the plugin's directory for its owner only; the service's user in the image is another.
  await promisify(execFile)('chmod', ['-R', 'a+rX', platform.pluginPath]);
  return [
    '--network',
    'host',
    '-v',
    `${platform.pluginPath}:${PLUGIN_MOUNT}:ro`,
    ...envArgs({ ...serviceEnvFor(platform), YT_DLP_PYTHONPATH: PLUGIN_MOUNT }),
  ];
}

export interface StartedContainer {
  name: string;
  /** From `podman run` to the first 200 from /readyz (or to the container running, with no API). */
  readyMs: number;
}

/** `podman run -d --name <name> <options> <image> <args>`, then waits until its API answers /readyz with 200. */
export async function runService(
  name: string,
  options: string[],
  image: string,
  args: string[] = [],
  readyUrl: string | null = null,
): Promise<StartedContainer> {
  const started = Date.now();
  await podmanOk(['run', '--detach', '--name', name, ...options, image, ...args]);
  await waitUntilReady(name, readyUrl);
  return { name, readyMs: Date.now() - started };
}

/** `podman start <name>` of a stopped container, then waits as runService does. */
export async function startAgain(name: string, readyUrl: string | null): Promise<StartedContainer> {
  const started = Date.now();
  await podmanOk(['start', name]);
  await waitUntilReady(name, readyUrl);
  return { name, readyMs: Date.now() - started };
}

async function waitUntilReady(name: string, readyUrl: string | null): Promise<void> {
  if (readyUrl === null) return;
  try {
    await waitFor(
      `${name} answers ${readyUrl} with 200`,
      async () => (await fetch(readyUrl).catch(() => null))?.status === 200,
      90_000,
      100,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${await logsOf(name)}`);
  }
}

/** `npm run --silent admin -- <args>` inside the container (the README's command), its JSON output parsed. */
export async function adminInContainer(name: string, args: string[]): Promise<any> {
  const output = await podmanOk(['exec', name, 'npm', 'run', '--silent', 'admin', '--', ...args]);
  return JSON.parse(output);
}
