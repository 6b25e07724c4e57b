import { DEFAULT_VIDEO_URL_SCHEMES, parseAbsoluteUrl } from '../video-url.js';

export interface PlaylistUrlRules {
  /** Hosts (host or host:port) of the video platform. */
  videoHosts: readonly string[];
  /** Schemes without the colon. Default: https. */
  schemes?: readonly string[];
}

export type PlaylistUrlResult = { ok: true; url: string } | { ok: false; reason: string };

const LIST_ID = /^[A-Za-z0-9_-]{2,64}$/;

/**
 * `/playlist?list=<id>` on the video platform's hosts, rebuilt from its
 * scheme, host and id alone, so no other query or fragment reaches yt-dlp.
 */
export function parsePlaylistUrl(input: string, rules: PlaylistUrlRules): PlaylistUrlResult {
  const schemes = (rules.schemes ?? DEFAULT_VIDEO_URL_SCHEMES).map((scheme) => scheme.toLowerCase());
  const hosts = rules.videoHosts.map((host) => host.toLowerCase());
  const refuse = (problem: string): PlaylistUrlResult => ({
    ok: false,
    reason: `playlistUrl must be a playlist URL of the form ${schemes[0] ?? 'https'}://${hosts[0] ?? 'www.youtube.com'}/playlist?list=<id> (${problem})`,
  });
  const parsed = parseAbsoluteUrl(input);
  if (typeof parsed === 'string') return refuse(parsed);
  if (!schemes.includes(parsed.protocol.slice(0, -1))) return refuse(`the scheme must be ${schemes.join(' or ')}`);
  if (parsed.username !== '' || parsed.password !== '') return refuse('credentials are not allowed');
  if (!hosts.includes(parsed.host)) return refuse(`${parsed.host} is not a supported host`);
  if (parsed.pathname !== '/playlist') return refuse(`${parsed.pathname} is not a playlist path`);
  const lists = parsed.searchParams.getAll('list');
  if (lists.length !== 1 || !LIST_ID.test(lists[0] as string))
    return refuse('it needs one list id of letters, digits, - and _');
  return { ok: true, url: `${parsed.protocol}//${parsed.host}/playlist?list=${lists[0]}` };
}
