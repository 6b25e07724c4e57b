import type { DownloadMediaRequest, DownloadedMedia } from '../../application/ports/extractor/media-downloader.js';
import { ScriptedExtractor, answerAtOnce, writeDownloadedAudio } from './scripted-extractor.js';

/**
 * Lookups answer at once; a download reports growing progress every 50 ms
 * until the test releases its video id, then writes a small file. Lets a
 * test hold a job IN_PROGRESS for as long as it needs, without yt-dlp.
 */
export class ControlledExtractor extends ScriptedExtractor {
  private readonly released = new Set<string>();
  readonly running = new Set<string>();

  constructor() {
    super({ probe: answerAtOnce({ title: 'A watched video' }) });
    this.script.download = (request) => this.downloadOnceReleased(request);
  }

  release(videoId: string): void {
    this.released.add(videoId);
  }

  private async downloadOnceReleased(request: DownloadMediaRequest): Promise<DownloadedMedia> {
    const videoId = new URL(request.url).searchParams.get('v') ?? 'x';
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
    return writeDownloadedAudio(request);
  }
}
