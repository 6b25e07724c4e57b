import { appendFile } from 'node:fs/promises';
import { PlatformAccess } from '../../infrastructure/extractor/platform-access.js';

/**
 * Stands in for a service process whose yt-dlp runs refresh cookies: each of
 * `count` runs checks a copy of the jar out, adds a cookie named
 * `<label>_<run>` to it as yt-dlp would, and checks it back in. Runs start
 * at `startAt` (epoch ms), so two such processes write back at once.
 */
async function main(): Promise<void> {
  const [jar, scratchDir, label, count, startAt] = process.argv.slice(2);
  const access = new PlatformAccess({
    cookies: { '*': [jar] },
    proxies: {},
    proxyCooldownMs: 0,
    concurrency: {},
    spacingMs: {},
    botCheckBackoffMs: 0,
  });
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
  for (let run = 0; run < Number(count); run += 1) {
    const { args, finish } = await access.begin('https://www.youtube.com/watch?v=x', {
      scratchDir,
      waitForPlatform: true,
    });
    const copy = args[args.indexOf('--cookies') + 1];
    await appendFile(
      copy,
      `${['127.0.0.1', 'FALSE', '/', 'FALSE', '2000000000', `${label}_${run}`, 'v'].join('\t')}\n`,
    );
    await finish(null);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
