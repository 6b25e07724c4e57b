export interface VideoUrlRules {
  /** Hosts (host or host:port) serving `/watch?v=<id>` and `/live/<id>`. */
  videoHosts: readonly string[];
  /** Hosts serving `/<id>`. */
  shortHosts: readonly string[];
  /** Allowed schemes without the colon; the platform's own URLs are https. */
  schemes: readonly string[];
  /** Client-download links also accept `/shorts/<id>`. */
  allowShorts?: boolean;
}

export type VideoUrlResult = { ok: true; videoId: string; url: string } | { ok: false; reason: string };

const VIDEO_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Recognises the video platform's URL forms. The submitted URL is kept as
 * given (the spec echoes it back); only its shape is checked.
 */
export function parseVideoUrl(input: string, rules: VideoUrlRules): VideoUrlResult {
  const reason = `url must be a video URL of the form https://${rules.videoHosts[0] ?? '{video_host}'}/watch?v=<id>, https://${rules.shortHosts[0] ?? '{short_host}'}/<id> or https://${rules.videoHosts[0] ?? '{video_host}'}/live/<id>`;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason };
  }
  if (!rules.schemes.includes(url.protocol.slice(0, -1)) || url.username !== '' || url.password !== '') return { ok: false, reason };
  const host = url.host.toLowerCase();
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  let videoId: string | null = null;
  if (rules.videoHosts.includes(host)) {
    if (url.pathname === '/watch') videoId = url.searchParams.get('v');
    else if (segments.length === 2 && (segments[0] === 'live' || (rules.allowShorts === true && segments[0] === 'shorts'))) videoId = segments[1];
  } else if (rules.shortHosts.includes(host) && segments.length === 1) {
    videoId = segments[0];
  }
  if (videoId === null || !VIDEO_ID.test(videoId)) return { ok: false, reason };
  return { ok: true, videoId, url: input };
}
