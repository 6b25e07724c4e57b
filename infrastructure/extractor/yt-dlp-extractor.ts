import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  ChannelLister,
  ChannelListing,
  ChannelListingOptions,
} from '../../application/ports/extractor/channel-lister.js';
import { ExtractionError } from '../../application/ports/extractor/extraction-error.js';
import type {
  DownloadMediaRequest,
  DownloadedMedia,
  MediaDownloader,
} from '../../application/ports/extractor/media-downloader.js';
import type { MediaLinkResolver, MediaLinks } from '../../application/ports/extractor/media-link-resolver.js';
import type { ProbeOptions, VideoMetadata, VideoProber } from '../../application/ports/extractor/video-prober.js';
import { beatWhile } from '../../application/beat-while.js';
import { isVideoFormat } from '../../domain/media-format.js';
import { FILE_LINE_PREFIX, STREAMS_LINE_PREFIX, buildDownloadArguments } from './build-download-arguments.js';
import { chooseHeightWithinSize } from './choose-height-within-size.js';
import { classifyYtDlpError } from './classify-yt-dlp-error.js';
import { METADATA_ARGUMENTS, composeYtDlpArguments } from './compose-yt-dlp-arguments.js';
import { describeDownloadedFile } from './describe-downloaded-file.js';
import { type ReportedVideo, parseReportedVideo } from './reported-video.js';
import { DownloadProgress } from './download-progress.js';
import { locateDownloadedFile } from './locate-downloaded-file.js';
import { parseChannelListing } from './parse-channel-listing.js';
import { type YtDlpLinkInfo, parseClientLinks } from './parse-client-links.js';
import type { ExclusiveGate } from './exclusive-gate.js';
import type { PlatformAccess, RunAccess } from './platform-access.js';
import { type YtDlpInfo, parseVideoMetadata } from './parse-video-metadata.js';
import {
  OutputTooLargeError,
  type ProcessResult,
  type RunProcessOptions,
  spawnProcessGroup,
  superviseProcess,
} from './run-process.js';
import { YtDlpForkServer } from './forked/yt-dlp-fork-server.js';

export interface YtDlpExtractorOptions {
  ytDlpPath: string;
  /** A path to ffmpeg; a bare name is looked up on PATH by yt-dlp. */
  ffmpegPath: string;
  /** Default: `ffprobe` beside ffmpeg, where yt-dlp looks for it too (on PATH when ffmpegPath is a bare name). */
  ffprobePath?: string;
  /** Extra PYTHONPATH entries, e.g. a directory of extractor plugins. */
  pythonPath?: string;
  /** Cookies, proxies, pacing and back-off per platform (see platform-access.ts). */
  access?: PlatformAccess;
  socketTimeoutSeconds?: number;
  /** Passed before the adapter's own options, which therefore win where both are given. */
  extraArgs?: readonly string[];
  /** Upper bound for one metadata extraction. Downloads are bounded by their AbortSignal only. */
  probeTimeoutMs?: number;
  /** Upper bound for one channel listing; default 5 minutes (1000 videos take many pages). */
  listingTimeoutMs?: number;
  /** Options the installed version understands (see yt-dlp-version.ts); asked per run, as an update may change them. */
  versionArguments?: () => Promise<readonly string[]>;
  /** Every run is shared; a self-update takes it alone. */
  gate?: ExclusiveGate;
  /** Fork downloads from a warm yt-dlp once the worker role starts the server (see yt-dlp-fork-server.ts); default true. */
  forkDownloads?: boolean;
  /** The fork server is launched by the first run that needs it rather than when the worker role starts. */
  warmUpOnFirstUse?: boolean;
  /** Which installation of yt-dlp runs now; a fork server that imported an earlier one is not used. */
  installation?: () => Promise<number>;
  /** Told each time a download fork server is ready to take runs. */
  onForkServerReady?: (pid: number | undefined) => void;
}

/** The downloaded file's name before its extension, inside the job's work directory. */
const MEDIA_BASE_NAME = 'media';
/** Where a video's `-J` dump waits for the download that reuses it; dot-named so it is never taken for the result. */
const INFO_JSON_NAME = '.info.json';
/** yt-dlp's exit code when `--break-match-filters` rejected the video: here, only a stream in progress. */
const REJECTED_BY_FILTER_EXIT_CODE = 101;
const MAX_DETAILS_CHARS = 4000;

/** What a download is run with besides the request: the height a size limit allows, and a page to download from. */
interface DownloadPlan {
  maxHeight?: number;
  /** The page's metadata (`-J`), loaded instead of extracting the page again (`--load-info-json`). */
  infoJsonFile?: string;
}

/**
 * The extractor port on the yt-dlp program, with ffmpeg for merging, cutting
 * and audio extraction and ffprobe to check what was delivered.
 *
 * A download runs yt-dlp once, in the job's work directory, writing
 * `media.<ext>` there; the result is the path yt-dlp prints after its last
 * step (see locateDownloadedFile). A video download with a size limit first
 * extracts the metadata (`-J`) to choose a height, then downloads from that
 * dump (`--load-info-json`) rather than extracting twice.
 */
export class YtDlpExtractor implements VideoProber, MediaDownloader, ChannelLister, MediaLinkResolver {
  private readonly ffprobePath: string;
  /** Started by the worker role, which runs the downloads (see yt-dlp-fork-server.ts); until then every run spawns yt-dlp. */
  readonly forks: YtDlpForkServer | null;

  constructor(private readonly options: YtDlpExtractorOptions) {
    this.ffprobePath = options.ffprobePath ?? siblingProgram(options.ffmpegPath, 'ffprobe');
    this.forks =
      options.forkDownloads === false
        ? null
        : new YtDlpForkServer({
            ytDlpPath: options.ytDlpPath,
            env: this.environment(),
            warmUpArgs: composeYtDlpArguments(
              {
                ffmpegPath: options.ffmpegPath,
                socketTimeoutSeconds: options.socketTimeoutSeconds,
                extraArgs: options.extraArgs,
              },
              [],
            ),
            installation: options.installation,
            launchOnFirstRun: options.warmUpOnFirstUse,
            onReady: options.onForkServerReady,
          });
  }

  async probe(url: string, options: ProbeOptions = {}): Promise<VideoMetadata> {
    const { info } = await this.extractInfo(url, options.signal);
    return parseVideoMetadata(info, options.includeAudioTracks === true);
  }

  async listChannel(url: string, options: ChannelListingOptions): Promise<ChannelListing> {
    const args = ['--flat-playlist', '-J', '--playlist-end', String(options.maxVideos), '--', url];
    const result = await this.run(url, args, undefined, {
      signal: options.signal,
      timeoutMs: this.options.listingTimeoutMs ?? 300_000,
      maxStdoutChars: 64 * 1024 * 1024,
    });
    if (result.code !== 0 || result.timedOut) throw failure(result);
    let listing: ChannelListing | null = null;
    try {
      listing = parseChannelListing(JSON.parse(result.stdout), options.maxVideos);
    } catch {
      // Reported below, like any other output that is not a listing.
    }
    if (listing === null)
      throw new ExtractionError(
        null,
        'The extractor returned no channel listing',
        result.stdout.slice(0, MAX_DETAILS_CHARS),
      );
    return listing;
  }

  async resolveMediaLinks(url: string, options: { signal?: AbortSignal } = {}): Promise<MediaLinks> {
    const { info } = await this.extractInfo(url, options.signal);
    if (isLive(info)) throw liveStreamError();
    const links = parseClientLinks(info as YtDlpLinkInfo);
    if (links.links.length === 0)
      throw new ExtractionError('FORMAT_UNAVAILABLE', 'The platform offers no direct media link for this video');
    return links;
  }

  async download(request: DownloadMediaRequest): Promise<DownloadedMedia> {
    const startedAt = performance.now();
    const workDir = path.resolve(request.workDir);
    const plan = await this.planDownload(request, workDir);
    const runStartedAt = performance.now();
    const { printedPaths, reported, stderr } = await this.runDownload(request, workDir, plan);
    const ranAt = performance.now();
    const filePath = await locateDownloadedFile(workDir, printedPaths, MEDIA_BASE_NAME);
    if (filePath === null) throw new ExtractionError(null, 'The extractor reported no output file', details(stderr));
    const media = await describeDownloadedFile(filePath, request.format, {
      ffprobePath: this.ffprobePath,
      signal: request.signal,
      reported,
    });
    return {
      ...media,
      stageMs: {
        prepare: Math.round(runStartedAt - startedAt),
        ytDlp: Math.round(ranAt - runStartedAt),
        check: Math.round(performance.now() - ranAt),
      },
    };
  }

  /**
   * A video under a size limit reads the page first (given, or extracted now) to choose the height, and is then
   * downloaded from that page; a page given for any other download is used as it is.
   */
  private async planDownload(request: DownloadMediaRequest, workDir: string): Promise<DownloadPlan> {
    const infoJsonFile = path.join(workDir, INFO_JSON_NAME);
    if (!isVideoFormat(request.format) || request.maxFileSizeBytes === undefined) {
      if (request.infoJson === undefined) return {};
      await writeFile(infoJsonFile, request.infoJson);
      return { infoJsonFile };
    }
    const { info, json } = await this.pageToDownload(request, workDir);
    if (isLive(info)) throw liveStreamError();
    const clipSeconds = clipLength(info.duration, request.startTime, request.endTime);
    const maxHeight = chooseHeightWithinSize(info, Number(request.format), request.maxFileSizeBytes, clipSeconds);
    await writeFile(infoJsonFile, json);
    return { maxHeight, infoJsonFile };
  }

  /** The page given with the request, or extracted now into the work directory. */
  private async pageToDownload(
    request: DownloadMediaRequest,
    workDir: string,
  ): Promise<{ info: YtDlpInfo; json: string }> {
    if (request.infoJson !== undefined)
      return { info: JSON.parse(request.infoJson) as YtDlpInfo, json: request.infoJson };
    // The metadata step prints no progress; bounded by probeTimeoutMs, it may still outlast the ack wait, so it beats too.
    return beatWhile(this.extractInfo(request.url, request.signal, workDir, request.onWaiting), request.onWaiting);
  }

  /** yt-dlp's download run in the work directory, its progress passed on: the paths it printed, and its stderr. */
  private async runDownload(
    request: DownloadMediaRequest,
    workDir: string,
    plan: DownloadPlan,
  ): Promise<{ printedPaths: string[]; reported: ReportedVideo | null; stderr: string }> {
    const printedPaths: string[] = [];
    let reported: ReportedVideo | null = null;
    const progress = new DownloadProgress();
    const args = buildDownloadArguments({
      url: request.url,
      format: request.format,
      maxHeight: plan.maxHeight,
      startTime: request.startTime,
      endTime: request.endTime,
      language: request.language,
      outputTemplate: `${MEDIA_BASE_NAME}.%(ext)s`,
      infoJsonFile: plan.infoJsonFile,
    });
    const onStdoutLine = (line: string) => {
      if (line.startsWith(FILE_LINE_PREFIX)) printedPaths.push(line.slice(FILE_LINE_PREFIX.length));
      if (line.startsWith(STREAMS_LINE_PREFIX)) reported = parseReportedVideo(line.slice(STREAMS_LINE_PREFIX.length));
      const update = progress.read(line);
      if (update !== null) request.onProgress?.(update);
    };
    const options = { cwd: workDir, signal: request.signal, onStdoutLine };
    const result = await this.run(request.url, args, workDir, options, request.onWaiting);
    if (result.code === REJECTED_BY_FILTER_EXIT_CODE) throw liveStreamError();
    if (result.code !== 0 || result.timedOut) throw failure(result);
    return { printedPaths, reported, stderr: result.stderr };
  }

  /** `yt-dlp -J`: the parsed metadata and its text, which a download can load again. */
  private async extractInfo(
    url: string,
    signal: AbortSignal | undefined,
    scratchDir?: string,
    onWaiting?: () => void,
  ): Promise<{ info: YtDlpInfo; json: string }> {
    // A lookup without a work directory is one a client waits on: it is refused during a platform back-off rather than held.
    const result = await this.run(
      url,
      [...METADATA_ARGUMENTS, '--', url],
      scratchDir,
      { signal, timeoutMs: this.options.probeTimeoutMs ?? 120_000, maxStdoutChars: 64 * 1024 * 1024 },
      onWaiting,
    );
    if (result.code !== 0 || result.timedOut) throw failure(result);
    try {
      const info = JSON.parse(result.stdout) as YtDlpInfo;
      if (typeof info !== 'object' || info === null) throw new TypeError('not an object');
      return { info, json: result.stdout };
    } catch {
      throw new ExtractionError(
        null,
        'The extractor returned unreadable metadata',
        result.stdout.slice(0, MAX_DETAILS_CHARS),
      );
    }
  }

  /**
   * Runs yt-dlp with the options every run shares, and the platform's proxy and cookies copied into `scratchDir` (or a
   * temporary directory). `onWaiting` is called now and then while the run waits for its turn, before yt-dlp starts.
   */
  private async run(
    url: string,
    args: readonly string[],
    scratchDir: string | undefined,
    options: RunProcessOptions,
    onWaiting?: () => void,
  ): Promise<ProcessResult> {
    let temporaryDir: string | null = null;
    let access: RunAccess | null = null;
    let stderr: string | null = null;
    try {
      if (this.options.access !== undefined) {
        const dir = scratchDir ?? (await mkdtemp(path.join(tmpdir(), 'yt-dlp-run-')));
        if (dir !== scratchDir) temporaryDir = dir;
        access = await this.options.access.begin(url, {
          scratchDir: dir,
          waitForPlatform: scratchDir !== undefined,
          signal: options.signal,
          onWaiting,
        });
      }
      const argv = composeYtDlpArguments(
        {
          ffmpegPath: this.options.ffmpegPath,
          socketTimeoutSeconds: this.options.socketTimeoutSeconds,
          accessArgs: access?.args,
          versionArgs: await this.options.versionArguments?.(),
          extraArgs: this.options.extraArgs,
        },
        args,
      );
      // A fork of the warm server has already paid Python's start-up; without one ready the command starts as usual.
      const start = async () => {
        this.forks?.firstRun();
        const installation = (await this.options.installation?.()) ?? 0;
        return superviseProcess(
          () =>
            this.forks?.take(installation, argv, options.cwd) ??
            spawnProcessGroup(this.options.ytDlpPath, argv, { env: this.environment(), ...options }),
          options,
        );
      };
      const result = await (this.options.gate === undefined
        ? start()
        : this.options.gate.shared(start, { signal: options.signal, onWaiting }));
      stderr = result.stderr;
      return result;
    } catch (error) {
      if (error instanceof OutputTooLargeError)
        throw new ExtractionError(null, 'The extractor returned too much output', error.message);
      if (isSpawnError(error)) throw new ExtractionError(null, 'The extractor could not be started', error.message);
      throw error;
    } finally {
      await access?.finish(stderr);
      if (temporaryDir !== null) await rm(temporaryDir, { recursive: true, force: true });
    }
  }

  private environment(): NodeJS.ProcessEnv {
    const pythonPath = [this.options.pythonPath, process.env.PYTHONPATH]
      .filter((entry) => entry !== undefined && entry !== '')
      .join(path.delimiter);
    // Messages quote the platform's typographic apostrophes; the service's locale must not turn them into errors.
    const env: NodeJS.ProcessEnv = { ...process.env, PYTHONUTF8: '1' };
    if (pythonPath !== '') env.PYTHONPATH = pythonPath;
    return env;
  }
}

function failure(result: ProcessResult): ExtractionError {
  if (result.timedOut) return new ExtractionError('NETWORK_ERROR', 'The extractor timed out', details(result.stderr));
  const { code, message } = classifyYtDlpError(result.stderr);
  return new ExtractionError(code, message, details(result.stderr));
}

function liveStreamError(): ExtractionError {
  return new ExtractionError(
    'LIVE_STREAM_IN_PROGRESS',
    'The live stream is still in progress',
    'live_status is is_live',
  );
}

function isLive(info: YtDlpInfo): boolean {
  return info.live_status === 'is_live' || info.is_live === true;
}

function details(stderr: string): string {
  return stderr.trim().slice(-MAX_DETAILS_CHARS);
}

function clipLength(
  duration: number | null | undefined,
  start: number | undefined,
  end: number | undefined,
): number | null {
  if (typeof duration !== 'number' || duration <= 0) return null;
  return Math.max(0, Math.min(end ?? duration, duration) - (start ?? 0));
}

function siblingProgram(programPath: string, name: string): string {
  return programPath.includes(path.sep) ? path.join(path.dirname(programPath), name) : name;
}

function isSpawnError(error: unknown): error is NodeJS.ErrnoException {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === 'string' &&
    (error as NodeJS.ErrnoException).syscall?.startsWith('spawn') === true
  );
}
