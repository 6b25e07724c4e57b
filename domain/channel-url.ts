import { DEFAULT_VIDEO_URL_SCHEMES, parseAbsoluteUrl, pathSegments } from './video-url.js';

export interface ChannelUrlRules {
  /** Hosts (host or host:port) of the video platform. */
  videoHosts: readonly string[];
  /** Schemes without the colon. Default: https. */
  schemes?: readonly string[];
}

/**
 * `url`: the channel's URL rebuilt from its scheme, host and path, without
 * the submitted query or fragment, which yt-dlp may read as instructions
 * (`#__youtubedl_smuggle=` sets request headers).
 */
export type ChannelUrlResult = { ok: true; url: string } | { ok: false; reason: string };

const HANDLE = /^@[\p{L}\p{N}._-]{1,100}$/u;
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const NAMED_FORMS = new Set(['channel', 'c', 'user']);

/**
 * The channel URLs users paste: `/@handle`, `/channel/<id>`, `/c/<name>` and
 * `/user/<name>`, each also with `/videos`, on the video platform's hosts.
 */
export function parseChannelUrl(input: string, rules: ChannelUrlRules): ChannelUrlResult {
  const schemes = (rules.schemes ?? DEFAULT_VIDEO_URL_SCHEMES).map((scheme) => scheme.toLowerCase());
  const hosts = rules.videoHosts.map((host) => host.toLowerCase());
  const scheme = schemes[0] ?? 'https';
  const host = hosts[0] ?? 'www.youtube.com';
  const refuse = (problem: string): ChannelUrlResult => ({
    ok: false,
    reason: `channelUrl must be a channel URL of the form ${scheme}://${host}/@<handle>, /channel/<id>, /c/<name> or /user/<name>, optionally followed by /videos (${problem})`,
  });

  const parsed = parseAbsoluteUrl(input);
  if (typeof parsed === 'string') return refuse(parsed);
  if (!schemes.includes(parsed.protocol.slice(0, -1))) return refuse(`the scheme must be ${schemes.join(' or ')}`);
  if (parsed.username !== '' || parsed.password !== '') return refuse('credentials are not allowed');
  if (!hosts.includes(parsed.host)) return refuse(`${parsed.host} is not a supported host`);
  const segments = pathSegments(safeDecode(parsed.pathname)) ?? [];
  const withoutTab = segments.at(-1) === 'videos' ? segments.slice(0, -1) : segments;
  const [first, second] = withoutTab;
  const isHandle = withoutTab.length === 1 && HANDLE.test(first);
  const isNamed = withoutTab.length === 2 && NAMED_FORMS.has(first) && NAME.test(second);
  if (!isHandle && !isNamed) return refuse(`${parsed.pathname} is not a channel path`);
  return { ok: true, url: `${parsed.protocol}//${parsed.host}${parsed.pathname}` };
}

function safeDecode(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}
