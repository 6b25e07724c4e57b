import type {
  DownloadMediaRequest,
  DownloadedMedia,
  Extractor,
  VideoMetadata,
} from '../../application/ports/extractor.js';

/** Answers every lookup at once and downloads nothing: for API tests whose jobs need never run. */
export class InstantExtractor implements Extractor {
  async listChannel(): Promise<never> {
    throw new Error('not used');
  }
  async resolveMediaLinks(): Promise<never> {
    throw new Error('not used');
  }
  async probe(url: string): Promise<VideoMetadata> {
    return {
      id: new URL(url).searchParams.get('v') ?? 'x',
      title: 'A video',
      duration: 60,
      liveStatus: 'not_live',
      tags: [],
    };
  }
  download(_request: DownloadMediaRequest): Promise<DownloadedMedia> {
    throw new Error('no downloads in this test');
  }
}
