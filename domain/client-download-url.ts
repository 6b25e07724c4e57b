import {
  DEFAULT_SHORT_HOSTS,
  DEFAULT_VIDEO_HOSTS,
  DEFAULT_VIDEO_URL_SCHEMES,
  parseAbsoluteUrl,
  parseVideoUrl,
  pathSegments,
} from './video-url.js';

export type ClientDownloadPlatform = 'video-platform' | 'photo-sharing' | 'short-video' | 'social-network';

export interface PlatformHosts {
  /** Hosts (host or host:port) serving the platform's full links. */
  hosts: readonly string[];
  /** Hosts (host or host:port) serving `/<id>` share links. */
  shortHosts: readonly string[];
}

export interface ClientDownloadUrlRules {
  videoPlatform: PlatformHosts;
  photoSharing: Pick<PlatformHosts, 'hosts'>;
  shortVideo: PlatformHosts;
  socialNetwork: PlatformHosts;
  /** Schemes without the colon. Default: https. */
  schemes?: readonly string[];
}

/** The platforms' own hosts; deployments and tests configure others. */
export const DEFAULT_CLIENT_DOWNLOAD_HOSTS: ClientDownloadUrlRules = {
  videoPlatform: { hosts: DEFAULT_VIDEO_HOSTS, shortHosts: DEFAULT_SHORT_HOSTS },
  photoSharing: { hosts: ['www.instagram.com', 'instagram.com'] },
  shortVideo: {
    hosts: ['www.tiktok.com', 'tiktok.com', 'm.tiktok.com'],
    shortHosts: ['vm.tiktok.com', 'vt.tiktok.com'],
  },
  socialNetwork: {
    hosts: ['www.facebook.com', 'facebook.com', 'm.facebook.com', 'web.facebook.com'],
    shortHosts: ['fb.watch'],
  },
};

export type ClientDownloadUrlResult =
  | {
      ok: true;
      platform: ClientDownloadPlatform;
      /** The platform's id of the media, or the code of a short share link. */
      id: string;
      /** True when `id` is a short link's code, which the platform resolves to the media by redirecting. */
      shortLink: boolean;
      /** The URL as submitted, which the job reports back. */
      url: string;
      /**
       * The same link rebuilt from the parts its form needs: no fragment, no
       * query beyond the id's own. The extractor is given this, never the
       * submitted URL, whose fragment or query yt-dlp may read as instructions
       * (`#__youtubedl_smuggle=` sets request headers).
       */
      canonicalUrl: string;
    }
  | { ok: false; reason: string };

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const USER = /^@[A-Za-z0-9_.]{1,64}$/;
const PHOTO_SHARING_KINDS = new Set(['p', 'reel', 'reels', 'tv']);
const SOCIAL_NETWORK_KINDS = new Set(['videos', 'watch', 'reel']);

/** `query`: the one the form needs to name the media, rebuilt; the path alone names it otherwise. */
type Match = { id: string; shortLink: boolean; query?: string } | null;

/**
 * Recognises the links a client-download lookup accepts, on each platform's
 * configured hosts. A host listed for several platforms (a local stand-in in
 * tests) is tried against each platform's shapes in turn.
 */
export function parseClientDownloadUrl(input: string, rules: ClientDownloadUrlRules): ClientDownloadUrlResult {
  const schemes = (rules.schemes ?? DEFAULT_VIDEO_URL_SCHEMES).map((scheme) => scheme.toLowerCase());
  const refuse = (problem: string): ClientDownloadUrlResult => ({
    ok: false,
    reason: `${acceptedForms(rules, schemes[0] ?? 'https')} (${problem})`,
  });

  const parsed = parseAbsoluteUrl(input);
  if (typeof parsed === 'string') return refuse(parsed);
  if (!schemes.includes(parsed.protocol.slice(0, -1))) return refuse(`the scheme must be ${schemes.join(' or ')}`);
  if (parsed.username !== '' || parsed.password !== '') return refuse('credentials are not allowed');

  const on: OnHosts = (hosts) => hosts.some((candidate) => candidate.toLowerCase() === parsed.host);
  const found = videoPlatformLink(input, schemes, rules, on) ?? otherPlatformLink(input, parsed, rules, on);
  if (found !== null) return found;
  const knownHost = allHosts(rules).some(on);
  return refuse(
    knownHost
      ? `${parsed.pathname}${parsed.search} is not a video link this service supports`
      : `${parsed.host} is not a supported host`,
  );
}

/** Whether the URL being parsed is on one of `hosts`. */
type OnHosts = (hosts: readonly string[]) => boolean;
type Recognised = Extract<ClientDownloadUrlResult, { ok: true }>;

/** The video platform's links, recognised as the video downloads recognise them, its shorts included. */
function videoPlatformLink(
  input: string,
  schemes: string[],
  rules: ClientDownloadUrlRules,
  on: OnHosts,
): Recognised | null {
  const { hosts, shortHosts } = rules.videoPlatform;
  if (!on(hosts) && !on(shortHosts)) return null;
  const video = parseVideoUrl(input, { videoHosts: hosts, shortHosts, schemes, allowShorts: true });
  if (!video.ok) return null;
  const { videoId: id, canonicalUrl } = video;
  return { ok: true, platform: 'video-platform', id, shortLink: false, url: input, canonicalUrl };
}

/** The other platforms' links, each host's list tried with its platform's shapes in turn. */
function otherPlatformLink(input: string, parsed: URL, rules: ClientDownloadUrlRules, on: OnHosts): Recognised | null {
  const segments = pathSegments(parsed.pathname) ?? [];
  const candidates: Array<[ClientDownloadPlatform, readonly string[], () => Match]> = [
    ['photo-sharing', rules.photoSharing.hosts, () => photoSharingMatch(segments)],
    ['short-video', rules.shortVideo.hosts, () => shortVideoMatch(segments)],
    ['short-video', rules.shortVideo.shortHosts, () => shortLinkMatch(segments)],
    ['social-network', rules.socialNetwork.hosts, () => socialNetworkMatch(segments, parsed)],
    ['social-network', rules.socialNetwork.shortHosts, () => shortLinkMatch(segments)],
  ];
  for (const [platform, hosts, match] of candidates) {
    const found = on(hosts) ? match() : null;
    if (found === null) continue;
    const { query, ...media } = found;
    const canonicalUrl = `${parsed.protocol}//${parsed.host}${parsed.pathname}${query ?? ''}`;
    return { ok: true, platform, ...media, url: input, canonicalUrl };
  }
  return null;
}

function allHosts(rules: ClientDownloadUrlRules): (readonly string[])[] {
  const { videoPlatform, photoSharing, shortVideo, socialNetwork } = rules;
  return [
    videoPlatform.hosts,
    videoPlatform.shortHosts,
    photoSharing.hosts,
    shortVideo.hosts,
    shortVideo.shortHosts,
    socialNetwork.hosts,
    socialNetwork.shortHosts,
  ];
}

/** `/p/<id>`, `/reel/<id>`, `/reels/<id>`, `/tv/<id>`. */
function photoSharingMatch(segments: string[]): Match {
  if (segments.length !== 2 || !PHOTO_SHARING_KINDS.has(segments[0])) return null;
  return ID.test(segments[1]) ? { id: segments[1], shortLink: false } : null;
}

/** `/@<user>/video/<id>`. */
function shortVideoMatch(segments: string[]): Match {
  if (segments.length !== 3 || !USER.test(segments[0]) || segments[1] !== 'video') return null;
  return ID.test(segments[2]) ? { id: segments[2], shortLink: false } : null;
}

/** `/<code>` on a share-link host. */
function shortLinkMatch(segments: string[]): Match {
  return segments.length === 1 && ID.test(segments[0]) ? { id: segments[0], shortLink: true } : null;
}

/**
 * `/.../videos/<id>`, `/.../watch/<id>` and `/.../reel/<id>`, whatever leads
 * up to them (a page name, say), plus the network's own `/watch?v=<id>`.
 */
function socialNetworkMatch(segments: string[], url: URL): Match {
  const last = segments.length - 1;
  if (last >= 1 && SOCIAL_NETWORK_KINDS.has(segments[last - 1]) && ID.test(segments[last]))
    return { id: segments[last], shortLink: false };
  const watched = url.searchParams.get('v');
  if (segments[last] === 'watch' && watched !== null && ID.test(watched))
    return { id: watched, shortLink: false, query: `?v=${watched}` };
  return null;
}

function acceptedForms(rules: ClientDownloadUrlRules, scheme: string): string {
  const forms: string[] = [];
  const first = (hosts: readonly string[]) => hosts[0]?.toLowerCase();
  const video = first(rules.videoPlatform.hosts);
  const photo = first(rules.photoSharing.hosts);
  const shortVideo = first(rules.shortVideo.hosts);
  const social = first(rules.socialNetwork.hosts);
  if (video !== undefined) forms.push(`${scheme}://${video}/watch?v=<id>`, `${scheme}://${video}/shorts/<id>`);
  if (photo !== undefined) forms.push(`${scheme}://${photo}/reel/<id>`);
  if (shortVideo !== undefined) forms.push(`${scheme}://${shortVideo}/@<user>/video/<id>`);
  if (social !== undefined) forms.push(`${scheme}://${social}/<page>/videos/<id>`);
  return `url must be a link to a video on a supported platform, such as ${forms.join(', ')}`;
}
