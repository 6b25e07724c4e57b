import { derive, group } from '../compose-settings.js';
import { InvalidValue } from '../invalid-value.js';
import { type Parser, perPlatform } from '../parsers.js';
import type { SettingValue } from '../setting.js';
import { integer, optional, variable } from '../variable.js';

const pools = perPlatform((value) => value.split('|'));
const counts = (max: number): Parser<Record<string, number>> =>
  perPlatform((value) => {
    if (!/^\d+$/.test(value) || Number(value) > max)
      throw new InvalidValue(`must give whole numbers up to ${max}, got "${value}"`);
    return Number(value);
  });

/** A pool per platform, with a single value as the `*` entry when the pools name none. */
const withSingleForEveryPlatform = ({ pools, single }: { pools: Record<string, string[]>; single?: string }) => {
  if (single !== undefined) pools['*'] ??= [single];
  return pools;
};

const secondsToMs = (seconds: number) => seconds * 1000;

/** Cookies, proxies and pacing per platform host, `*` for every platform. */
export const platformAccess = group({
  /** Netscape cookie files; several rotate run by run. */
  cookies: derive(
    group({
      pools: variable({
        name: 'YT_DLP_COOKIES_FILES',
        doc: 'Netscape cookie files per platform, e.g. `youtube.com=/etc/vds/yt-a.txt|/etc/vds/yt-b.txt,*=/etc/vds/any.txt`; a pool rotates run by run, and cookies yt-dlp refreshed are merged back. Fixes: "Sign in to confirm you\'re not a bot", age-restricted or members-only videos refused without a signed-in session',
        shownDefault: 'unset',
        fallback: () => ({}),
        parse: pools,
      }),
      single: optional(
        'YT_DLP_COOKIES_FILE',
        'a cookies file for every platform: the `*` entry of `YT_DLP_COOKIES_FILES` when that names none',
      ),
    }),
    withSingleForEveryPlatform,
  ),
  /** Proxy URLs; several rotate run by run. */
  proxies: derive(
    group({
      pools: variable({
        name: 'YT_DLP_PROXIES',
        doc: "proxy URLs per platform in the same form, rotated round-robin. Fixes: HTTP 403/429 and bot checks because the server's own address is blocked or rate-limited",
        shownDefault: 'unset',
        fallback: () => ({}),
        parse: pools,
      }),
      single: optional(
        'YT_DLP_PROXY',
        'a proxy for every platform: the `*` entry of `YT_DLP_PROXIES` when that names none',
      ),
    }),
    withSingleForEveryPlatform,
  ),
  /** A proxy that drew a bot check is left out this long (unless every proxy is). */
  proxyCooldownMs: derive(
    integer('YT_DLP_PROXY_COOLDOWN_SECONDS', 900, [0, 86_400], 'a proxy that drew a bot check sits out this long'),
    secondsToMs,
  ),
  /** yt-dlp runs at once per platform, in this process. */
  concurrency: variable({
    name: 'PLATFORM_CONCURRENCY',
    doc: "per platform (`youtube.com=2,*=4`): yt-dlp runs at once per process. Fixes: bursts of downloads that trip the platform's rate limiting",
    shownDefault: 'unlimited',
    fallback: () => ({}),
    parse: counts(1000),
  }),
  /** Least time between the starts of two runs on one platform, in this process. */
  spacingMs: variable({
    name: 'PLATFORM_REQUEST_SPACING_MS',
    doc: 'per platform, in the same form: the least time between two yt-dlp starts per process',
    shownDefault: '`0`',
    fallback: () => ({}),
    parse: counts(3_600_000),
  }),
  /** After a bot check, runs on the platform wait (downloads) or are refused (lookups) this long. */
  botCheckBackoffMs: derive(
    integer(
      'PLATFORM_BOT_CHECK_BACKOFF_SECONDS',
      600,
      [0, 86_400],
      'after a bot check (or HTTP 429) from a platform, its downloads wait and its lookups are refused (500 with the wait in `error`) this long. Fixes: one blocked address hammering the platform and digging itself deeper',
    ),
    secondsToMs,
  ),
});

export type PlatformAccessSettings = SettingValue<typeof platformAccess>;
