import { stat } from 'node:fs/promises';
import path from 'node:path';
import { type DownloadMediaRequest, type DownloadedMedia, ExtractionError, type Extractor, type ProbeOptions, type VideoMetadata } from '../../application/ports/extractor.js';
import { type MediaFormat, VIDEO_HEIGHTS, isVideoFormat } from '../../domain/media-format.js';
import { probeMediaFile } from '../media/ffprobe.js';
import { buildDownloadArguments } from './build-download-arguments.js';
import { classifyYtDlpError } from './classify-yt-dlp-error.js';
import { parseVideoMetadata, type YtDlpInfo } from './parse-video-metadata.js';
import { runProcess } from './run-process.js';
import { chooseHeightWithinSize } from './choose-height-within-size.js';

export interface YtDlpExtractorOptions {
  ytDlpPath: string;
  ffmpegPath: string;
  ffprobePath: string;
  /** Extra PYTHONPATH entries, e.g. a directory of extractor plugins. */
  pythonPath?: string;
  cookiesFile?: string;
  proxy?: string;
  socketTimeoutSeconds?: number;
  /** Upper bound for one metadata lookup. */
  probeTimeoutMs?: number;
}

const MIME_TYPES: Record<string, string> = {
  m4a: 'audio/mp4',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  webm: 'audio/webm',
  opus: 'audio/ogg',
  ogg: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  mkv: 'video/x-matroska',
};

/** The extractor port on the yt-dlp program, with ffmpeg for merging, extraction and cuts. */
export class YtDlpExtractor implements Extractor {
  constructor(private readonly options: YtDlpExtractorOptions) {}

  async probe(url: string, options: ProbeOptions = {}): Promise<VideoMetadata> {
    return parseVideoMetadata(await this.info(url, options.signal), options.includeAudioTracks === true);
  }

  async download(request: DownloadMediaRequest): Promise<DownloadedMedia> {
    let maxHeight: number | undefined;
    if (isVideoFormat(request.format)) {
      const info = await this.info(request.url, request.signal);
      const clipSeconds = clipLength(info.duration ?? null, request.startTime, request.endTime);
      maxHeight = chooseHeightWithinSize(info, Number(request.format), request.maxFileSizeBytes, clipSeconds);
    }
    const args = [
      ...this.commonArguments(),
      ...buildDownloadArguments({
        url: request.url,
        format: request.format,
        maxHeight,
        startTime: request.startTime,
        endTime: request.endTime,
        language: request.language,
        outputTemplate: path.join(request.workDir, 'media.%(ext)s'),
        ffmpegPath: this.options.ffmpegPath,
      }),
    ];
    const printed: string[] = [];
    const result = await runProcess(this.options.ytDlpPath, args, {
      env: this.environment(),
      signal: request.signal,
      onStdoutLine: (line) => {
        if (line.trim() !== '') printed.push(line.trim());
        request.onProgress?.({ downloadedBytes: 0, totalBytes: null });
      },
    });
    if (result.code !== 0) throw this.failure(result.stderr);
    const filePath = printed.at(-1);
    if (filePath === undefined || !path.resolve(filePath).startsWith(path.resolve(request.workDir))) {
      throw new ExtractionError(null, 'The extractor reported no output file', result.stderr.slice(-2000));
    }
    const fileSize = (await stat(filePath)).size;
    const extension = path.extname(filePath).slice(1).toLowerCase();
    const actualFormat = await this.deliveredFormat(request.format, filePath);
    const mimeType = extension === 'webm' && isVideoFormat(actualFormat) ? 'video/webm' : (MIME_TYPES[extension] ?? 'application/octet-stream');
    return { filePath, fileSize, actualFormat, extension, mimeType };
  }

  private async info(url: string, signal?: AbortSignal): Promise<YtDlpInfo> {
    const result = await runProcess(this.options.ytDlpPath, [...this.commonArguments(), '-J', '--no-playlist', '--', url], {
      env: this.environment(),
      signal,
      timeoutMs: this.options.probeTimeoutMs ?? 90_000,
    });
    if (result.code !== 0) throw this.failure(result.stderr);
    try {
      return JSON.parse(result.stdout) as YtDlpInfo;
    } catch {
      throw new ExtractionError(null, 'The extractor returned unreadable metadata', result.stdout.slice(0, 2000));
    }
  }

  private async deliveredFormat(requested: MediaFormat, filePath: string): Promise<MediaFormat> {
    if (requested === 'audio' || requested === 'audio-mp3') return requested;
    const probe = await probeMediaFile(this.options.ffprobePath, filePath);
    if (requested === 'audio-aac') {
      return probe.streams.some((stream) => stream.type === 'audio' && stream.codec === 'aac') ? 'audio-aac' : 'audio';
    }
    const height = Math.max(0, ...probe.streams.filter((stream) => stream.type === 'video').map((stream) => stream.height ?? 0));
    // The largest named height the file reaches; anything smaller still counts as the lowest one.
    return VIDEO_HEIGHTS.find((candidate) => Number(candidate) <= height) ?? '360';
  }

  private failure(stderr: string): ExtractionError {
    const { code, message } = classifyYtDlpError(stderr);
    return new ExtractionError(code, message, stderr.trim().split('\n').slice(-5).join('\n'));
  }

  private commonArguments(): string[] {
    const args = ['--ignore-config', '--no-cache-dir', '--retries', '3', '--socket-timeout', String(this.options.socketTimeoutSeconds ?? 20)];
    if (this.options.cookiesFile !== undefined) args.push('--cookies', this.options.cookiesFile);
    if (this.options.proxy !== undefined) args.push('--proxy', this.options.proxy);
    return args;
  }

  private environment(): NodeJS.ProcessEnv {
    const extra = this.options.pythonPath;
    if (extra === undefined) return process.env;
    return { ...process.env, PYTHONPATH: [extra, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter) };
  }
}

function clipLength(duration: number | null, start: number | undefined, end: number | undefined): number | null {
  if (duration === null) return null;
  return Math.max(0, (end ?? duration) - (start ?? 0));
}
