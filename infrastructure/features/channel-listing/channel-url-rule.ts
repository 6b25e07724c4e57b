import { parseChannelUrl } from '../../../domain/channel-url.js';
import type { UrlRule } from '../../http/url-policies.js';

/** A channel's URL, on one of the video platform's hosts. */
export const channelUrl: UrlRule<string> = (url, { platforms }) => {
  const result = parseChannelUrl(url, { videoHosts: platforms.videoHosts, schemes: platforms.videoUrlSchemes });
  return result.ok ? { ok: true, value: result.url } : result;
};
