import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  DownloadMediaRequest,
  DownloadedMedia,
  Extractor,
  VideoMetadata,
} from '../../application/ports/extractor.js';

/**
 * Lookups answer at once; a download reports growing progress every 50 ms
 * until the test releases its video id, then writes a small file. Lets a
 * test hold a job IN_PROGRESS for as long as it needs, without yt-dlp.
 */
export class ControlledExtractor implements Extractor {
  private readonly released = new Set<string>();
  readonly running = new Set<string>();

  release(videoId: string): void {
    this.released.add(videoId);
  }

  async listChannel(): Promise<never> {
    throw new Error('not used');
  }
  async resolveMediaLinks(): Promise<never> {
    throw new Error('not used');
  }
  async probe(url: string): Promise<VideoMetadata> {
    return { id: videoIdOf(url), title: 'A watched video', duration: 60, liveStatus: 'not_live', tags: [] };
  }

  async download(request: DownloadMediaRequest): Promise<DownloadedMedia> {
    const videoId = videoIdOf(request.url);
    this.running.add(videoId);
    try {
      const total = 1_000_000;
      let downloaded = 0;
      while (!this.released.has(videoId)) {
        if (request.signal?.aborted) throw request.signal.reason;
        downloaded = Math.min(total - 1, downloaded + 10_000);
        request.onProgress?.({ downloadedBytes: downloaded, totalBytes: total });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      this.running.delete(videoId);
    }
    const filePath = path.join(request.workDir, 'media.m4a');
    await writeFile(filePath, Buffer.alloc(1024, 1));
    return { filePath, fileSize: 1024, actualFormat: 'audio', extension: 'm4a', mimeType: 'audio/mp4' };
  }
}

function videoIdOf(url: string): string {
  return new URL(url).searchParams.get('v') ?? 'x';
}
