/** The video platform's own hosts; deployments and tests configure others. */
export const DEFAULT_VIDEO_HOSTS: readonly string[] = [
  'www.youtube.com',
  'youtube.com',
  'm.youtube.com',
  'music.youtube.com',
];
export const DEFAULT_SHORT_HOSTS: readonly string[] = ['youtu.be'];
export const DEFAULT_VIDEO_URL_SCHEMES: readonly string[] = ['https'];

export interface VideoUrlRules {
  /** Hosts (host or host:port) serving `/watch?v=<id>`, `/live/<id>` and, where allowed, `/shorts/<id>`. */
  videoHosts: readonly string[];
  /** Hosts (host or host:port) serving `/<id>`. */
  shortHosts: readonly string[];
  /** Schemes without the colon. The platform is https only; a local stand-in in tests is http. Default: https. */
  schemes?: readonly string[];
  /** Client-download lookups also take `/shorts/<id>`; downloads do not. */
  allowShorts?: boolean;
}

export type VideoUrlForm = 'watch' | 'short' | 'live' | 'shorts';

export type VideoUrlResult =
  | {
      ok: true;
      videoId: string;
      /** The URL as submitted, which the job reports back. */
      url: string;
      /** The same video as `<scheme>://<first video host>/watch?v=<id>`, one spelling per video. */
      canonicalUrl: string;
      form: VideoUrlForm;
    }
  | { ok: false; reason: string };

const VIDEO_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Longer URLs are refused before anything else reads them (the platform itself answers such requests with errors). */
const MAX_URL_LENGTH = 2048;

const DEFAULT_PORTS: Readonly<Record<string, string>> = {
  'http:': '80',
  'https:': '443',
  'ws:': '80',
  'wss:': '443',
  'ftp:': '21',
};

/**
 * Recognises the video platform's URL forms on the configured hosts. A
 * refusal names the field, the accepted forms and what is wrong with this one.
 */
export function parseVideoUrl(input: string, rules: VideoUrlRules): VideoUrlResult {
  const schemes = (rules.schemes ?? DEFAULT_VIDEO_URL_SCHEMES).map((scheme) => scheme.toLowerCase());
  const videoHosts = rules.videoHosts.map((host) => host.toLowerCase());
  const shortHosts = rules.shortHosts.map((host) => host.toLowerCase());
  const refuse = (problem: string): VideoUrlResult => ({
    ok: false,
    reason: `${acceptedForms(videoHosts, shortHosts, schemes[0] ?? 'https', rules.allowShorts === true)} (${problem})`,
  });

  const parsed = parseAbsoluteUrl(input);
  if (typeof parsed === 'string') return refuse(parsed);
  const scheme = parsed.protocol.slice(0, -1);
  if (!schemes.includes(scheme)) return refuse(`the scheme must be ${schemes.join(' or ')}`);
  if (parsed.username !== '' || parsed.password !== '') return refuse('credentials are not allowed');

  const host = parsed.host;
  const isVideoHost = videoHosts.includes(host);
  const isShortHost = shortHosts.includes(host);
  if (!isVideoHost && !isShortHost) return refuse(`${host} is not a supported host`);

  const segments = pathSegments(parsed.pathname);
  let match: { form: VideoUrlForm; id: string | null } | undefined;
  if (isVideoHost && segments?.length === 1 && segments[0] === 'watch') {
    match = { form: 'watch', id: parsed.searchParams.get('v') };
  } else if (isVideoHost && segments?.length === 2 && segments[0] === 'live') {
    match = { form: 'live', id: segments[1] };
  } else if (isVideoHost && segments?.length === 2 && segments[0] === 'shorts' && rules.allowShorts === true) {
    match = { form: 'shorts', id: segments[1] };
  } else if (isShortHost && segments?.length === 1) {
    match = { form: 'short', id: segments[0] };
  }
  if (match === undefined) return refuse(`${parsed.pathname} is not a video path`);
  if (match.id === null || match.id === '') return refuse('the video id is missing');
  if (match.form === 'watch' && parsed.searchParams.getAll('v').length > 1)
    return refuse('the video id is given more than once');
  if (!VIDEO_ID.test(match.id)) return refuse('the video id is malformed');

  const canonicalHost = videoHosts[0] ?? host;
  const canonicalScheme = schemes[0] ?? scheme;
  return {
    ok: true,
    videoId: match.id,
    url: input,
    canonicalUrl: `${canonicalScheme}://${canonicalHost}/watch?v=${match.id}`,
    form: match.form,
  };
}

/**
 * The URL, or why it is not one: too long, relative, unparseable, padded with
 * spaces the parser would silently drop, or spelled in a way the parser would
 * quietly rewrite (backslashes for slashes, a missing `//`, a host written
 * percent-encoded, as a decimal or hex number, or with a default port), so
 * the URL accepted is the URL the platform will be asked for.
 */
export function parseAbsoluteUrl(input: string): URL | string {
  if (input.length > MAX_URL_LENGTH) return `it is longer than ${MAX_URL_LENGTH} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
  if (/[\s\u0000-\u001f]/.test(input)) return 'it contains spaces or control characters';
  if (input.includes('\\')) return 'it contains a backslash';
  let parsed: URL;
  try {
    parsed = new URL(input);
  } catch {
    return 'it is not an absolute URL';
  }
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(input)?.[1];
  if (authority === undefined) return 'it must begin with <scheme>://<host>';
  const written = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(authority.slice(authority.lastIndexOf('@') + 1));
  const port = written?.[2];
  const plainPort =
    port === undefined || port === parsed.port || (parsed.port === '' && port === DEFAULT_PORTS[parsed.protocol]);
  if (written === null || written[1].toLowerCase() !== parsed.hostname || !plainPort)
    return 'its host is not written in its plain form';
  return parsed;
}

/**
 * The path's segments, a single trailing slash allowed (share links often
 * carry one); null when a segment is empty, as in `/live//id`.
 */
export function pathSegments(pathname: string): string[] | null {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const segments = trimmed.split('/').slice(1);
  return segments.some((segment) => segment === '') ? null : segments;
}

function acceptedForms(
  videoHosts: readonly string[],
  shortHosts: readonly string[],
  scheme: string,
  allowShorts: boolean,
): string {
  const forms: string[] = [];
  const videoHost = videoHosts[0];
  if (videoHost !== undefined) forms.push(`${scheme}://${videoHost}/watch?v=<id>`);
  if (shortHosts[0] !== undefined) forms.push(`${scheme}://${shortHosts[0]}/<id>`);
  if (videoHost !== undefined) forms.push(`${scheme}://${videoHost}/live/<id>`);
  if (videoHost !== undefined && allowShorts) forms.push(`${scheme}://${videoHost}/shorts/<id>`);
  const listed = forms.length <= 1 ? forms.join('') : `${forms.slice(0, -1).join(', ')} or ${forms[forms.length - 1]}`;
  return `url must be a video URL of the form ${listed}`;
}
