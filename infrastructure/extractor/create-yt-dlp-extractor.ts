import { Counter, Gauge, type Registry } from 'prom-client';
import type { Logger } from '../../application/ports/logger.js';
import type { ExtractorSettings } from '../config/sections/extractor.js';
import { EgressProxy } from '../egress/egress-proxy.js';
import { ExclusiveGate } from './exclusive-gate.js';
import { PlatformAccess } from './platform-access.js';
import { YtDlpExtractor } from './yt-dlp-extractor.js';
import { YtDlpSelfUpdate } from './yt-dlp-self-update.js';
import { YtDlpInstallation } from './yt-dlp-installation.js';
import type { YtDlpVersion } from './yt-dlp-version.js';

export interface YtDlpSetup {
  extractor: YtDlpExtractor;
  /** Settles once the version is known; runs wait for it. */
  detected: Promise<void>;
  /** The version found at start-up, after the last self-update, or after the file was found replaced. */
  version(): YtDlpVersion;
  /** Present when YT_DLP_UPDATE asks for updates; the worker role starts it. */
  selfUpdate: YtDlpSelfUpdate | null;
  /** The platforms' pacing and back-off, shared by every yt-dlp run of this process, warm helpers included. */
  access: PlatformAccess;
  /** The options for the version found; only known once `detected` has settled, and waits for a replaced yt-dlp's version. */
  versionArguments(): Promise<string[]>;
  /** Which installation runs: a number that grows each time the program is found replaced (its version known by then). */
  installation(): Promise<number>;
  /** YT_DLP_EXTRACTOR_ARGS as options. */
  extraArgs: readonly string[];
  /** The proxy every run goes through (the egress rule); listening once `detected` has settled. */
  egress: EgressProxy;
}

/**
 * Asks yt-dlp for its version before its first run (logged, and exported as
 * the `yt_dlp_info` metric), and again whenever a run finds the file replaced
 * (a self-update by another process on the host, or an upgrade), and passes
 * each run only the options that version understands.
 */
export function createYtDlpExtractor(settings: ExtractorSettings, logger: Logger, metrics: Registry): YtDlpSetup {
  const log = logger.child({ ytDlpPath: settings.ytDlpPath });
  const installed = new YtDlpInstallation(settings.ytDlpPath, log, versionGauge(metrics), settings.ytDlpExtractors);
  const gate = new ExclusiveGate();
  const egress = countedEgressProxy(settings, logger, metrics);
  // Taken alone first, so no run starts before the egress proxy listens and the options for its version are known.
  const detected = gate.alone(async () => {
    await egress.start();
    await installed.detect();
  });
  const access = platformAccess(settings, metrics, log, egress);
  const extraArgs = settings.ytDlpExtractorArgs.flatMap((value) => ['--extractor-args', value]);
  const extractor = new YtDlpExtractor({
    ytDlpPath: settings.ytDlpPath,
    ffmpegPath: settings.ffmpegPath,
    ffprobePath: settings.ffprobePath,
    pythonPath: settings.ytDlpPythonPath,
    socketTimeoutSeconds: settings.socketTimeoutSeconds,
    access,
    extraArgs,
    versionArguments: installed.versionArguments,
    gate,
    forkDownloads: settings.ytDlpDownloadProcess === 'fork',
    warmUpOnFirstUse: settings.warmUp === 'first-use',
    installation: installed.installation,
    onForkServerReady: (pid) => log.info({ pid }, 'download fork server ready: downloads fork from it'),
  });
  return {
    extractor,
    detected,
    version: () => installed.version(),
    selfUpdate: selfUpdateOf(settings, gate, log, installed),
    access,
    versionArguments: installed.versionArguments,
    installation: installed.installation,
    extraArgs,
    egress,
  };
}

/** The self-update YT_DLP_UPDATE asks for, or none; what it installs is a new installation. */
function selfUpdateOf(
  settings: ExtractorSettings,
  gate: ExclusiveGate,
  logger: Logger,
  installed: YtDlpInstallation,
): YtDlpSelfUpdate | null {
  if (settings.ytDlpUpdate === 'off') return null;
  return new YtDlpSelfUpdate({
    ytDlpPath: settings.ytDlpPath,
    channel: settings.ytDlpUpdate,
    intervalMs: settings.ytDlpUpdateIntervalHours * 3_600_000,
    gate,
    logger,
    onVersion: installed.updated,
  });
}

/** The access controls, with metrics that say when a platform drew a bot check and how long it is paused. */
function platformAccess(
  settings: ExtractorSettings,
  metrics: Registry,
  logger: Logger,
  egress: EgressProxy,
): PlatformAccess {
  const botChecks = new Counter({
    name: 'platform_bot_checks_total',
    help: 'Bot checks (and HTTP 429) a platform answered yt-dlp with',
    labelNames: ['platform'],
    registers: [metrics],
  });
  const access: PlatformAccess = new PlatformAccess(
    settings.platformAccess,
    {
      botCheck: (platform, proxy) => {
        botChecks.inc({ platform });
        // The proxy URL may carry credentials: only whether one was used is logged.
        logger.warn(
          { platform, viaProxy: proxy !== undefined, backoffSeconds: settings.platformAccess.botCheckBackoffMs / 1000 },
          'platform asked for a bot check; backing off',
        );
      },
    },
    Date.now,
    egress,
  );
  new Gauge({
    name: 'platform_backoff_seconds',
    help: 'Seconds left before this process sends yt-dlp to the platform again after a bot check',
    labelNames: ['platform'],
    registers: [metrics],
    collect() {
      for (const platform of access.platformsBackedOff())
        this.set({ platform }, Math.ceil(access.backoffRemainingMs(platform) / 1000));
    },
  });
  return access;
}

/** The egress proxy every run goes through, its refusals counted in `egress_refusals_total`. */
function countedEgressProxy(settings: ExtractorSettings, logger: Logger, metrics: Registry): EgressProxy {
  // yt-dlp (Python) and ffmpeg skip a given proxy for the hosts no_proxy names; nothing may bypass the egress rule.
  for (const name of ['no_proxy', 'NO_PROXY']) delete process.env[name];
  const egress = new EgressProxy({ allow: settings.egressAllow, logger: logger.child({ component: 'egress' }) });
  const refusals = new Counter({
    name: 'egress_refusals_total',
    help: 'Requests of yt-dlp or ffmpeg the egress rule refused',
    registers: [metrics],
  });
  egress.on('refused', () => refusals.inc());
  return egress;
}

/** Sets `yt_dlp_info` to the version in use. */
function versionGauge(metrics: Registry): (current: YtDlpVersion) => void {
  const info = new Gauge({
    name: 'yt_dlp_info',
    help: 'The yt-dlp version in use (value 1)',
    labelNames: ['version', 'channel'],
    registers: [metrics],
  });
  return (current) => {
    info.reset();
    info.set({ version: current.version, channel: current.channel }, 1);
  };
}
