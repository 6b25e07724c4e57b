import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  ChannelLister,
  ChannelListing,
  ChannelListingOptions,
} from '../../application/ports/extractor/channel-lister.js';
import type {
  DownloadMediaRequest,
  DownloadedMedia,
  MediaDownloader,
} from '../../application/ports/extractor/media-downloader.js';
import type { MediaLinkResolver, MediaLinks } from '../../application/ports/extractor/media-link-resolver.js';
import type { ProbeOptions, VideoMetadata, VideoProber } from '../../application/ports/extractor/video-prober.js';

/** How each capability answers, as a test scripts it; one left out is refused when asked. */
export interface ExtractorScript {
  probe?: VideoProber['probe'];
  download?: MediaDownloader['download'];
  listChannel?: ChannelLister['listChannel'];
  resolveMediaLinks?: MediaLinkResolver['resolveMediaLinks'];
}

/**
 * The extractor of every spec that does not run yt-dlp, for a use case or in place of the service's: each capability
 * answers as the test's script says (which the test may change as it goes) and records what it was asked. A capability
 * the script leaves out rejects, as one the test does not use; the service refuses those a double lacks, so a new
 * capability needs a line here only once a test scripts it.
 */
export class ScriptedExtractor implements VideoProber, MediaDownloader, ChannelLister, MediaLinkResolver {
  /** The URLs probed, in order. */
  readonly probed: string[] = [];
  /** The downloads asked for, in order. */
  readonly downloads: DownloadMediaRequest[] = [];

  constructor(public script: ExtractorScript = {}) {}

  async probe(url: string, options?: ProbeOptions): Promise<VideoMetadata> {
    this.probed.push(url);
    return (this.script.probe ?? unscripted('probe'))(url, options);
  }

  async download(request: DownloadMediaRequest): Promise<DownloadedMedia> {
    this.downloads.push(request);
    return (this.script.download ?? unscripted('download'))(request);
  }

  async listChannel(url: string, options: ChannelListingOptions): Promise<ChannelListing> {
    return (this.script.listChannel ?? unscripted('listChannel'))(url, options);
  }

  async resolveMediaLinks(url: string, options?: { signal?: AbortSignal }): Promise<MediaLinks> {
    return (this.script.resolveMediaLinks ?? unscripted('resolveMediaLinks'))(url, options);
  }
}

function unscripted(capability: string): () => Promise<never> {
  return () => Promise.reject(new Error(`${capability} is not scripted in this test`));
}

/** The metadata of the video a URL names by its `v` parameter, as a platform would describe it. */
export function videoAt(url: string, about: Partial<VideoMetadata> = {}): VideoMetadata {
  const id = new URL(url).searchParams.get('v') ?? 'x';
  return { id, title: 'A video', duration: 60, liveStatus: 'not_live', tags: [], ...about };
}

/** A probe script that describes the video a URL names at once. */
export function answerAtOnce(about: Partial<VideoMetadata> = {}): VideoProber['probe'] {
  return async (url) => videoAt(url, about);
}

/** Writes `content` as the downloaded audio, where a finished download leaves it: `media.m4a` in its work directory. */
export async function writeDownloadedAudio(
  request: DownloadMediaRequest,
  content: Buffer | string = Buffer.alloc(1024, 1),
): Promise<DownloadedMedia> {
  const filePath = path.join(request.workDir, 'media.m4a');
  await writeFile(filePath, content);
  return {
    filePath,
    fileSize: Buffer.byteLength(content),
    actualFormat: 'audio',
    extension: 'm4a',
    mimeType: 'audio/mp4',
  };
}
