import type { Logger } from '../../../application/ports/logger.js';
import type { ExtractorSettings } from '../../config/sections/extractor.js';
import type { YtDlpSetup } from '../create-yt-dlp-extractor.js';
import type { PostgresExtractedInfoCache } from './extracted-info-cache.js';
import type { WarmExtractorOptions } from './warm-extractor.js';

/**
 * The helpers' options from the same settings and the same yt-dlp set-up as
 * the command line: its version's options, the extractor arguments, its
 * platforms' back-off and pacing, and the egress proxy.
 */
export function warmExtractorOptions(
  settings: ExtractorSettings,
  ytDlp: YtDlpSetup,
  logger: Logger,
  extractedInfo?: Pick<PostgresExtractedInfoCache, 'remember' | 'recall'>,
): WarmExtractorOptions {
  return {
    ytDlpPath: settings.ytDlpPath,
    ffmpegPath: settings.ffmpegPath,
    pythonPath: settings.ytDlpPythonPath,
    cookiesFile: settings.platformAccess.cookies['*']?.[0],
    // Read when a helper starts, after versionDetected, by which time the egress proxy listens; read earlier
    // (a copy of these options), it names an address nothing listens on, so lookups fail rather than bypass the rule.
    get proxy() {
      return ytDlp.egress.proxyUrlNow(settings.platformAccess.proxies['*']?.[0]);
    },
    socketTimeoutSeconds: settings.socketTimeoutSeconds,
    versionArguments: ytDlp.versionArguments,
    installation: ytDlp.installation,
    versionDetected: ytDlp.detected,
    extraArgs: ytDlp.extraArgs,
    access: ytDlp.access,
    processes: settings.warmExtractorProcesses,
    requestTimeoutMs: 120_000,
    logger,
    extractedInfo,
  };
}
