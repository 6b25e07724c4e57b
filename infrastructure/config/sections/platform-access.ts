import { ConfigError } from '../config-error.js';
import type { EnvReader } from '../env-reader.js';
import { type Variable, custom, integer, optional } from '../variable.js';

/** Cookies, proxies and pacing per platform host, `*` for every platform. */
export interface PlatformAccessSettings {
  /** Netscape cookie files; several rotate run by run. */
  cookies: Readonly<Record<string, readonly string[]>>;
  /** Proxy URLs; several rotate run by run. */
  proxies: Readonly<Record<string, readonly string[]>>;
  /** A proxy that drew a bot check is left out this long (unless every proxy is). */
  proxyCooldownMs: number;
  /** yt-dlp runs at once per platform, in this process. */
  concurrency: Readonly<Record<string, number>>;
  /** Least time between the starts of two runs on one platform, in this process. */
  spacingMs: Readonly<Record<string, number>>;
  /** After a bot check, runs on the platform wait (downloads) or are refused (lookups) this long. */
  botCheckBackoffMs: number;
}

const pools = (name: string) => (env: EnvReader) => env.perPlatform(name, (value) => value.split('|'));
const counts = (name: string, max: number) => (env: EnvReader) =>
  env.perPlatform(name, (value) => {
    if (!/^\d+$/.test(value) || Number(value) > max)
      throw new ConfigError(name, `must give whole numbers up to ${max}, got "${value}"`);
    return Number(value);
  });

const YT_DLP_COOKIES_FILES = custom(
  'YT_DLP_COOKIES_FILES',
  'Netscape cookie files per platform, e.g. `youtube.com=/etc/vds/yt-a.txt|/etc/vds/yt-b.txt,*=/etc/vds/any.txt`; a pool rotates run by run, and cookies yt-dlp refreshed are merged back. Fixes: "Sign in to confirm you\'re not a bot", age-restricted or members-only videos refused without a signed-in session',
  'unset',
  pools('YT_DLP_COOKIES_FILES'),
);
const YT_DLP_COOKIES_FILE = optional(
  'YT_DLP_COOKIES_FILE',
  'a cookies file for every platform: the `*` entry of `YT_DLP_COOKIES_FILES` when that names none',
);
const YT_DLP_PROXIES = custom(
  'YT_DLP_PROXIES',
  "proxy URLs per platform in the same form, rotated round-robin. Fixes: HTTP 403/429 and bot checks because the server's own address is blocked or rate-limited",
  'unset',
  pools('YT_DLP_PROXIES'),
);
const YT_DLP_PROXY = optional(
  'YT_DLP_PROXY',
  'a proxy for every platform: the `*` entry of `YT_DLP_PROXIES` when that names none',
);
const YT_DLP_PROXY_COOLDOWN_SECONDS = integer(
  'YT_DLP_PROXY_COOLDOWN_SECONDS',
  900,
  [0, 86_400],
  'a proxy that drew a bot check sits out this long',
);
const PLATFORM_CONCURRENCY = custom(
  'PLATFORM_CONCURRENCY',
  "per platform (`youtube.com=2,*=4`): yt-dlp runs at once per process. Fixes: bursts of downloads that trip the platform's rate limiting",
  'unlimited',
  counts('PLATFORM_CONCURRENCY', 1000),
);
const PLATFORM_REQUEST_SPACING_MS = custom(
  'PLATFORM_REQUEST_SPACING_MS',
  'per platform, in the same form: the least time between two yt-dlp starts per process',
  '`0`',
  counts('PLATFORM_REQUEST_SPACING_MS', 3_600_000),
);
const PLATFORM_BOT_CHECK_BACKOFF_SECONDS = integer(
  'PLATFORM_BOT_CHECK_BACKOFF_SECONDS',
  600,
  [0, 86_400],
  'after a bot check (or HTTP 429) from a platform, its downloads wait and its lookups are refused (500 with the wait in `error`) this long. Fixes: one blocked address hammering the platform and digging itself deeper',
);

export const platformAccessVariables: readonly Variable<unknown>[] = [
  YT_DLP_COOKIES_FILES,
  YT_DLP_COOKIES_FILE,
  YT_DLP_PROXIES,
  YT_DLP_PROXY,
  YT_DLP_PROXY_COOLDOWN_SECONDS,
  PLATFORM_CONCURRENCY,
  PLATFORM_REQUEST_SPACING_MS,
  PLATFORM_BOT_CHECK_BACKOFF_SECONDS,
];

export function readPlatformAccess(env: EnvReader): PlatformAccessSettings {
  const cookies = YT_DLP_COOKIES_FILES.read(env);
  const single = YT_DLP_COOKIES_FILE.read(env);
  if (single !== undefined) cookies['*'] ??= [single];
  const proxies = YT_DLP_PROXIES.read(env);
  const proxy = YT_DLP_PROXY.read(env);
  if (proxy !== undefined) proxies['*'] ??= [proxy];
  return {
    cookies,
    proxies,
    proxyCooldownMs: YT_DLP_PROXY_COOLDOWN_SECONDS.read(env) * 1000,
    concurrency: PLATFORM_CONCURRENCY.read(env),
    spacingMs: PLATFORM_REQUEST_SPACING_MS.read(env),
    botCheckBackoffMs: PLATFORM_BOT_CHECK_BACKOFF_SECONDS.read(env) * 1000,
  };
}
