import { parsePlaylistUrl } from '../../../domain/batch/playlist-url.js';
import type { UrlRule } from '../../http/url-policies.js';

/** A playlist's URL, on one of the video platform's hosts, rebuilt from its list id. */
export const playlistUrl: UrlRule<string> = (url, { platforms }) => {
  const result = parsePlaylistUrl(url, { videoHosts: platforms.videoHosts, schemes: platforms.videoUrlSchemes });
  return result.ok ? { ok: true, value: result.url } : result;
};
