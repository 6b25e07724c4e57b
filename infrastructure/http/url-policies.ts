import { parseVideoUrl } from '../../domain/video-url.js';
import type { PlatformSettings } from '../config/sections/platforms.js';
import type { WebhookSettings } from '../config/sections/webhooks.js';
import { checkWebhookUrl } from '../security/webhook-url-policy.js';
import { HttpError } from './http-error.js';

/** The configured settings URL rules read. */
export interface UrlSettings {
  platforms: PlatformSettings;
  webhooks: Pick<WebhookSettings, 'allowHosts'>;
}

/** A rule for one kind of URL a request gives: what the feature keeps of it, or why it is refused. */
export type UrlRule<Kept> = (
  url: string,
  settings: UrlSettings,
) => { ok: true; value: Kept } | { ok: false; reason: string };

/**
 * The configured URL rules, applied to request fields; a refusal is a 400 naming the field. A feature writes the rules
 * only it applies in its own folder; the rules several features share are below.
 */
export class UrlPolicies {
  constructor(private readonly settings: UrlSettings) {}

  apply<Kept>(rule: UrlRule<Kept>, url: string): Kept {
    const result = rule(url, this.settings);
    if (!result.ok) throw new HttpError(400, result.reason);
    return result.value;
  }
}

/** A video's URL as submitted, and its canonical URL. */
export const videoUrl: UrlRule<{ url: string; canonicalUrl: string }> = (url, { platforms }) => {
  const result = parseVideoUrl(url, {
    videoHosts: platforms.videoHosts,
    shortHosts: platforms.shortHosts,
    schemes: platforms.videoUrlSchemes,
  });
  return result.ok ? { ok: true, value: { url: result.url, canonicalUrl: result.canonicalUrl } } : result;
};

/** A webhook's URL, which must name a public host (or one allowed). */
export const webhookUrl: UrlRule<string> = (url, { webhooks }) => {
  const result = checkWebhookUrl(url, { allowHosts: webhooks.allowHosts });
  return result.ok ? { ok: true, value: url } : result;
};
