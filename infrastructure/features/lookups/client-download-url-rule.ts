import { type ClientDownloadPlatform, parseClientDownloadUrl } from '../../../domain/client-download-url.js';
import type { UrlRule } from '../../http/url-policies.js';

/** The URL as submitted, the link rebuilt for the extractor, and the platform it is on. */
export const clientDownloadUrl: UrlRule<{ url: string; canonicalUrl: string; platform: ClientDownloadPlatform }> = (
  url,
  { platforms },
) => {
  const result = parseClientDownloadUrl(url, {
    videoPlatform: { hosts: platforms.videoHosts, shortHosts: platforms.shortHosts },
    photoSharing: { hosts: platforms.photoSharingHosts },
    shortVideo: { hosts: platforms.shortVideoHosts, shortHosts: platforms.shortVideoShortHosts },
    socialNetwork: { hosts: platforms.socialNetworkHosts, shortHosts: platforms.socialNetworkShortHosts },
    schemes: platforms.videoUrlSchemes,
  });
  if (!result.ok) return result;
  return { ok: true, value: { url: result.url, canonicalUrl: result.canonicalUrl, platform: result.platform } };
};
