import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ExtractionError } from '../../../application/ports/extractor/extraction-error.js';
import type {
  DownloadMediaRequest,
  DownloadedMedia,
  MediaDownloader,
} from '../../../application/ports/extractor/media-downloader.js';
import type { ProbeOptions, VideoMetadata, VideoProber } from '../../../application/ports/extractor/video-prober.js';
import type { Logger } from '../../../application/ports/logger.js';
import { classifyYtDlpError } from '../classify-yt-dlp-error.js';
import { METADATA_ARGUMENTS, composeYtDlpArguments } from '../compose-yt-dlp-arguments.js';
import type { PlatformAccess } from '../platform-access.js';
import { type YtDlpInfo, parseVideoMetadata } from '../parse-video-metadata.js';
import { HelperPool } from './helper-pool.js';
import { type HelperAnswer, HelperProcess, HelperStoppedError } from './helper-process.js';
import { type HelperSettings, cookieIdentity, helperKey, helperSettingsNow } from './helper-settings.js';
import { type HelperWearLimits, wornOut } from './helper-wear.js';
import type { PostgresExtractedInfoCache } from './extracted-info-cache.js';
import { locateCommand } from '../locate-command.js';
import { pythonOfYtDlp } from './python-of-yt-dlp.js';

export interface WarmExtractorOptions {
  ytDlpPath: string;
  ffmpegPath: string;
  /** Extra PYTHONPATH entries (extractor plugins), as for the command line. */
  pythonPath?: string;
  /**
   * The proxy URL a helper is given for the operator's proxy it uses (the egress proxy, chained to it); read when the
   * helper starts. Default: the operator's proxy itself.
   */
  proxyUrl?: (upstream: string | undefined) => string;
  socketTimeoutSeconds?: number;
  /** Options the installed version understands, as the command line gets them (see yt-dlp-version.ts). */
  versionArguments?: () => Promise<readonly string[]>;
  /**
   * Which yt-dlp installation runs (see YtDlpSetup): a helper keeps the yt-dlp
   * it imported, so when this changes the helpers started before are
   * replaced, idle ones at once and busy ones when their request ends. A
   * zipapp's modules imported later would otherwise be read from the new file
   * at the old one's offsets.
   */
  installation?: () => Promise<number>;
  /** Settles once the version is known; no helper starts before, so none starts without its options. */
  versionDetected?: Promise<unknown>;
  /** The operator's options (YT_DLP_EXTRACTOR_ARGS), as the command line gets them. */
  extraArgs?: readonly string[];
  /**
   * The platforms' back-off and pacing, shared with the command line's runs, and the cookies file and proxy each
   * platform's lookups use. Without it, helpers use neither.
   */
  access?: Pick<PlatformAccess, 'admit' | 'helperChoice' | 'coolingDown'>;
  /** When a helper that still works is replaced anyway (see wornOut); none by default. */
  wear?: HelperWearLimits;
  /** Helper processes at most; each answers one request at a time. */
  processes: number;
  /** A request that finds every helper busy for this long runs on the command line instead. Default 10 s. */
  acquireTimeoutMs?: number;
  /** A request that takes longer kills its helper and fails as a timeout, as a `yt-dlp -J` run would. */
  requestTimeoutMs: number;
  readyTimeoutMs?: number;
  /** After a helper failed to start, requests use the command line for this long before starting one is tried again. */
  retryStartAfterMs?: number;
  logger: Logger;
  /** Default: the interpreter named by yt-dlp's own `#!` line. */
  python?: readonly string[];
  /** Default: yt_dlp_helper.py shipped beside this adapter's source. */
  script?: string;
  /** Where pages extracted here wait for the job's download, which then need not extract them again. */
  extractedInfo?: Pick<PostgresExtractedInfoCache, 'remember' | 'recall'>;
}

const MAX_DETAILS_CHARS = 4000;
const DEFAULT_ACQUIRE_TIMEOUT_MS = 10_000;

/**
 * Metadata from long-lived helper processes that imported yt_dlp once (yt_dlp_helper.py), instead of a `yt-dlp -J`
 * that pays Python's start-up and imports on every lookup. Downloads, and lookups while no helper can start, go to
 * the command-line extractor it decorates. A helper that times out is killed; one that dies frees its place at once
 * and is replaced on the next request, and its request runs on the command line instead, as does one that finds
 * every helper busy for `acquireTimeoutMs`. It serves only the capabilities it speeds up: listings and direct links,
 * rarer than submissions and reading many pages, are the command line's.
 */
export class WarmExtractor implements VideoProber, MediaDownloader {
  private readonly pool: HelperPool;
  private readonly scratchDirs = new Map<HelperProcess, string>();
  /** The installation new helpers start from; each running helper's installation and settings. */
  private installation = 0;
  private readonly startedWith = new Map<HelperProcess, { installation: number; settings: HelperSettings }>();
  private unavailableUntil = 0;
  private closed = false;
  private python: readonly string[] | null | undefined;
  private announced = false;

  constructor(
    private readonly commandLine: VideoProber & MediaDownloader,
    private readonly options: WarmExtractorOptions,
  ) {
    this.pool = new HelperPool({
      size: options.processes,
      waitMs: options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS,
      left: (helper) => void this.forget(helper),
    });
  }

  /** Starts one helper ahead of the first request and logs which extraction is in use. */
  async start(): Promise<void> {
    const helper = await this.acquire(await this.settingsFor(''), undefined);
    if (helper !== null) await this.release(helper);
  }

  async probe(url: string, options: ProbeOptions = {}): Promise<VideoMetadata> {
    // Refused during the platform's back-off and paced like any run; given up before a command-line fallback, which takes its own.
    const turn = await this.options.access?.admit(url, { waitForPlatform: false, signal: options.signal });
    let answer: HelperAnswer | null;
    let settings: HelperSettings = {};
    try {
      settings = await this.settingsFor(url);
      answer = await this.askHelper(url, settings, options);
      turn?.finish(answer?.stderr ?? null, settings.upstreamProxy);
    } catch (error) {
      turn?.finish(error instanceof ExtractionError ? (error.details ?? null) : null, settings.upstreamProxy);
      throw error;
    }
    if (answer === null) return this.commandLine.probe(url, options);
    if (!answer.ok) {
      const { code, message } = classifyYtDlpError(answer.stderr);
      throw new ExtractionError(code, message, answer.stderr.trim().slice(-MAX_DETAILS_CHARS));
    }
    if (typeof answer.info !== 'object' || answer.info === null)
      throw new ExtractionError(null, 'The extractor returned unreadable metadata');
    const metadata = parseVideoMetadata(answer.info as YtDlpInfo, options.includeAudioTracks === true);
    if (this.options.extractedInfo !== undefined) {
      await this.options.extractedInfo
        .remember(url, cookieIdentity(settings), JSON.stringify(answer.info))
        .catch((error: unknown) => {
          this.options.logger.warn({ err: error }, 'could not keep the extracted page for the download');
        });
    }
    return metadata;
  }

  /** A helper's answer; null when no helper can take the request or the one taking it died (the command line answers then). */
  private async askHelper(url: string, settings: HelperSettings, options: ProbeOptions): Promise<HelperAnswer | null> {
    const helper = await this.acquire(settings, options.signal);
    if (helper === null) return null;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      helper.kill();
    }, this.options.requestTimeoutMs);
    const onAbort = () => helper.kill();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    try {
      return await helper.extract(url, await this.changedCookies(helper, settings));
    } catch (error) {
      if (!(error instanceof HelperStoppedError)) throw error;
      if (options.signal?.aborted === true) throw options.signal.reason;
      if (timedOut)
        throw new ExtractionError(
          'NETWORK_ERROR',
          'The extractor timed out',
          error.stderr.trim().slice(-MAX_DETAILS_CHARS),
        );
      this.options.logger.warn(
        { err: error },
        'the extractor helper stopped during a request; answering it with the command line',
      );
      return null;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      await this.release(helper);
    }
  }

  /**
   * Starts from the page extracted at submission when it is recent enough and
   * was extracted with the same cookies; a download that fails from it (the
   * platform's media links can expire early) runs once more from the page.
   */
  async download(request: DownloadMediaRequest): Promise<DownloadedMedia> {
    if (request.infoJson !== undefined || this.options.extractedInfo === undefined)
      return this.commandLine.download(request);
    const infoJson = await this.options.extractedInfo
      .recall(request.url, cookieIdentity(await this.settingsFor(request.url)))
      .catch(() => null);
    if (infoJson === null) return this.commandLine.download(request);
    try {
      return await this.commandLine.download({ ...request, infoJson });
    } catch (error) {
      if (request.signal?.aborted === true) throw error;
      this.options.logger.warn(
        { err: error },
        'the download from the submitted page failed; extracting the page again',
      );
      return this.commandLine.download(request);
    }
  }

  /** The settings a helper for this URL's platform starts with now. */
  private settingsFor(url: string): Promise<HelperSettings> {
    return helperSettingsNow(this.options.access?.helperChoice(url) ?? {});
  }

  async close(): Promise<void> {
    this.closed = true;
    this.pool.close();
    await Promise.all([...this.scratchDirs.values()].map((dir) => rm(dir, { recursive: true, force: true })));
  }

  /**
   * A fresh private copy of the cookies file when it changed since the helper read it (replaced by the operator, or
   * refreshed cookies merged back by a run): the helper then reads it again, instead of being restarted each time.
   */
  private async changedCookies(helper: HelperProcess, wanted: HelperSettings): Promise<string | undefined> {
    const started = this.startedWith.get(helper);
    const scratch = this.scratchDirs.get(helper);
    if (started === undefined || scratch === undefined || wanted.cookiesFile === undefined) return undefined;
    if (started.settings.cookiesVersion === wanted.cookiesVersion) return undefined;
    const copy = path.join(scratch, 'cookies.txt');
    await copyFile(wanted.cookiesFile, copy);
    started.settings = { ...started.settings, cookiesVersion: wanted.cookiesVersion };
    return copy;
  }

  /** A helper started with these settings; null means "use the command line". */
  private async acquire(settings: HelperSettings, signal: AbortSignal | undefined): Promise<HelperProcess | null> {
    if (this.closed || Date.now() < this.unavailableUntil) return null;
    await this.retireHelpersOfAReplacedYtDlp();
    this.pool.retireIdle((helper) => this.outdated(helper, settings));
    return this.pool.acquire({ key: helperKey(settings), start: () => this.startHelper(settings) }, signal);
  }

  /** A helper on a proxy a bot check moved the lookups away from. */
  private outdated(helper: HelperProcess, wanted: HelperSettings): boolean {
    const proxy = this.startedWith.get(helper)?.settings.upstreamProxy;
    return proxy !== undefined && proxy !== wanted.upstreamProxy && this.options.access?.coolingDown(proxy) === true;
  }

  /** Back to the pool, or out of it: a helper of a replaced yt-dlp, or one worn out (see wornOut), does not serve again. */
  private async release(helper: HelperProcess): Promise<void> {
    let reusable = this.startedWith.get(helper)?.installation === this.installation;
    const worn = reusable && this.options.wear !== undefined ? await wornOut(helper, this.options.wear) : null;
    if (worn !== null) {
      reusable = false;
      this.options.logger.info({ reason: worn }, 'a warm yt-dlp helper is replaced');
    }
    this.pool.release(helper, reusable);
  }

  private async startHelper(settings: HelperSettings): Promise<HelperProcess | null> {
    if (this.closed || Date.now() < this.unavailableUntil) return null;
    const script = this.options.script ?? locateHelperScript();
    if (this.python === undefined) this.python = this.options.python ?? (await pythonOfYtDlp(this.options.ytDlpPath));
    if (this.python === null || script === null) {
      this.fallBack(
        this.python === null ? `${this.options.ytDlpPath} is not a Python script` : 'the helper script is missing',
        false,
      );
      return null;
    }
    let scratch: string | null = null;
    try {
      let cookiefile: string | undefined;
      if (settings.cookiesFile !== undefined) {
        // yt-dlp writes its cookie jar back when it closes: each helper gets a private copy, as each command-line run does.
        scratch = await mkdtemp(path.join(tmpdir(), 'yt-dlp-helper-'));
        cookiefile = path.join(scratch, 'cookies.txt');
        await copyFile(settings.cookiesFile, cookiefile);
      }
      await this.options.versionDetected;
      // Read once the version is known, by which time the egress proxy listens.
      const proxy = this.options.proxyUrl?.(settings.upstreamProxy) ?? settings.upstreamProxy;
      // The command line's own options, turned into the helper's YoutubeDL parameters by yt-dlp's own parser.
      const argv = composeYtDlpArguments(
        {
          ffmpegPath: this.options.ffmpegPath,
          socketTimeoutSeconds: this.options.socketTimeoutSeconds,
          accessArgs: [
            ...(proxy === undefined ? [] : ['--proxy', proxy]),
            ...(cookiefile === undefined ? [] : ['--cookies', cookiefile]),
          ],
          versionArgs: await this.options.versionArguments?.(),
          extraArgs: this.options.extraArgs,
        },
        METADATA_ARGUMENTS,
      );
      const { helper, version } = await HelperProcess.start({
        python: this.python,
        script,
        settings: { argv },
        env: await this.environment(),
        readyTimeoutMs: this.options.readyTimeoutMs ?? 30_000,
      });
      if (scratch !== null) this.scratchDirs.set(helper, scratch);
      this.startedWith.set(helper, { installation: this.installation, settings });
      if (!this.announced) {
        this.announced = true;
        this.options.logger.info(
          { extraction: 'warm', ytDlpVersion: version, processes: this.options.processes },
          'metadata lookups use warm yt-dlp helper processes',
        );
      }
      return helper;
    } catch (error) {
      if (scratch !== null) await rm(scratch, { recursive: true, force: true });
      this.fallBack(error instanceof Error ? error.message : String(error), true);
      return null;
    }
  }

  private fallBack(reason: string, retryLater: boolean): void {
    this.unavailableUntil = retryLater
      ? Date.now() + (this.options.retryStartAfterMs ?? 60_000)
      : Number.POSITIVE_INFINITY;
    this.announced = false;
    this.options.logger.warn(
      { extraction: 'command line', reason },
      'metadata lookups run yt-dlp as a command: no warm helper could start',
    );
    this.pool.turnAwayWaiting();
  }

  private async retireHelpersOfAReplacedYtDlp(): Promise<void> {
    const installation = (await this.options.installation?.()) ?? this.installation;
    if (installation === this.installation) return;
    this.installation = installation;
    this.options.logger.info(
      { ytDlpPath: this.options.ytDlpPath },
      'yt-dlp changed on disk; the warm helpers restart with it',
    );
    this.pool.retireIdle();
  }

  private async forget(helper: HelperProcess): Promise<void> {
    this.startedWith.delete(helper);
    const scratch = this.scratchDirs.get(helper);
    this.scratchDirs.delete(helper);
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  }

  private async environment(): Promise<NodeJS.ProcessEnv> {
    // yt-dlp's own file comes last: a zipapp release is importable from it, and a plain script there is ignored.
    const ytDlpFile = (await locateCommand(this.options.ytDlpPath)) ?? undefined;
    const pythonPath = [this.options.pythonPath, process.env.PYTHONPATH, ytDlpFile]
      .filter((entry) => entry !== undefined && entry !== '')
      .join(path.delimiter);
    return { ...process.env, PYTHONPATH: pythonPath, PYTHONUTF8: '1' };
  }
}

/** The script stays in the source tree (tsc copies no Python): beside this file, or four levels up from the compiled one. */
function locateHelperScript(): string | null {
  const candidates = [
    path.join(__dirname, 'yt_dlp_helper.py'),
    path.resolve(__dirname, '..', '..', '..', '..', 'infrastructure', 'extractor', 'warm', 'yt_dlp_helper.py'),
  ];
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}
