import { parseChannelUrl } from '../../domain/channel-url.js';
import { type ClientDownloadPlatform, parseClientDownloadUrl } from '../../domain/client-download-url.js';
import { parseVideoUrl } from '../../domain/video-url.js';
import type { PlatformSettings } from '../config/sections/platforms.js';
import type { WebhookSettings } from '../config/sections/webhooks.js';
import { checkWebhookUrl } from '../security/webhook-url-policy.js';
import { HttpError } from './http-error.js';

/** The configured URL rules, applied to request fields; a refusal is a 400 naming the field. */
export class UrlPolicies {
  constructor(
    private readonly platforms: PlatformSettings,
    private readonly webhooks: Pick<WebhookSettings, 'allowHosts'>,
  ) {}

  /** The URL as submitted and the video's canonical URL. */
  videoUrl(url: string): { url: string; canonicalUrl: string } {
    const result = parseVideoUrl(url, {
      videoHosts: this.platforms.videoHosts,
      shortHosts: this.platforms.shortHosts,
      schemes: this.platforms.videoUrlSchemes,
    });
    if (!result.ok) throw new HttpError(400, result.reason);
    return { url: result.url, canonicalUrl: result.canonicalUrl };
  }

  channelUrl(url: string): string {
    const result = parseChannelUrl(url, {
      videoHosts: this.platforms.videoHosts,
      schemes: this.platforms.videoUrlSchemes,
    });
    if (!result.ok) throw new HttpError(400, result.reason);
    return result.url;
  }

  /** The URL as submitted, and the link rebuilt for the extractor. */
  clientDownloadUrl(url: string): { url: string; canonicalUrl: string; platform: ClientDownloadPlatform } {
    const config = this.platforms;
    const result = parseClientDownloadUrl(url, {
      videoPlatform: { hosts: config.videoHosts, shortHosts: config.shortHosts },
      photoSharing: { hosts: config.photoSharingHosts },
      shortVideo: { hosts: config.shortVideoHosts, shortHosts: config.shortVideoShortHosts },
      socialNetwork: { hosts: config.socialNetworkHosts, shortHosts: config.socialNetworkShortHosts },
      schemes: config.videoUrlSchemes,
    });
    if (!result.ok) throw new HttpError(400, result.reason);
    return { url: result.url, canonicalUrl: result.canonicalUrl, platform: result.platform };
  }

  checkWebhookUrl(url: string): void {
    const result = checkWebhookUrl(url, { allowHosts: this.webhooks.allowHosts });
    if (!result.ok) throw new HttpError(400, result.reason);
  }
}
