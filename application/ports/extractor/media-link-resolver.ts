import type { ClientDownloadLink } from '../../../domain/lookup-job/client-download-job.js';

/** A direct media URL and what it holds: what a client-download job answers with. */
export type MediaLink = ClientDownloadLink;

/** A post or video's direct media links, best first, and what the platform says about it. */
export interface MediaLinks {
  title: string;
  /** Seconds; 0 when unknown. */
  duration: number;
  links: MediaLink[];
  description?: string;
  author?: string;
  authorUrl?: string;
  thumbnailUrl?: string;
}

/** The extractor's capability to give direct links to the media of a video or post on any supported platform. */
export interface MediaLinkResolver {
  resolveMediaLinks(url: string, options?: { signal?: AbortSignal }): Promise<MediaLinks>;
}
