import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The options file holding one run's proxy, and how to remove it once the run is over. */
export interface PrivateProxyOption {
  args: string[];
  remove(): Promise<void>;
}

let written = 0;

/**
 * Hands yt-dlp its proxy in an options file only this user can read, named
 * by `--config-locations`, instead of `--proxy <url>`: a command line is
 * visible to every local user (`ps`), and the address carries credentials
 * (the egress proxy's, or an operator's upstream proxy's).
 */
export async function privateProxyOption(proxyUrl: string, dir: string): Promise<PrivateProxyOption> {
  written += 1;
  const file = path.resolve(dir, `.yt-dlp-proxy-${process.pid}-${written}.conf`);
  await writeFile(file, `--proxy ${shellQuoted(proxyUrl)}\n`, { mode: 0o600, flag: 'wx' });
  return {
    args: ['--config-locations', file],
    remove: () => rm(file, { force: true }),
  };
}

/** yt-dlp splits an options file as a POSIX shell would (shlex): single quotes, with any single quote spelled '"'"'. */
function shellQuoted(value: string): string {
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}
