import type { ClientDownloadInfo, ClientDownloadJobDetails } from '../../domain/lookup-job/client-download-job.js';
import type { MediaLinkResolver } from '../ports/extractor/media-link-resolver.js';
import type { LookUp } from './lookup-job-steps.js';

/** A client-download job's work: the post's direct media links, best first, and what the platform says about it. */
export function lookUpClientDownloadLinks(
  extractor: MediaLinkResolver,
): LookUp<ClientDownloadJobDetails, ClientDownloadInfo> {
  return async ({ url, canonicalUrl }, signal) => {
    // Jobs recorded before the canonical link was: at least their fragment, which yt-dlp reads as instructions, stays behind.
    const { links, ...about } = await extractor.resolveMediaLinks(canonicalUrl ?? url.split('#')[0], { signal });
    return { ...about, url, downloadLinks: links };
  };
}
