import type { Logger } from '../../../application/ports/logger.js';
import type { ExtractorSettings } from '../../config/sections/extractor.js';
import type { YtDlpSetup } from '../create-yt-dlp-extractor.js';
import type { PostgresExtractedInfoCache } from './extracted-info-cache.js';
import type { WarmExtractorOptions } from './warm-extractor.js';

/**
 * The helpers' options from the same settings and the same yt-dlp set-up as
 * the command line: its version's options, the extractor arguments, its
 * platforms' back-off, pacing, cookies and proxies, and the egress proxy.
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
    // Called when a helper starts, after versionDetected, by which time the egress proxy listens; called earlier, it
    // names an address nothing listens on, so lookups fail rather than bypass the rule.
    proxyUrl: (upstream) => ytDlp.egress.proxyUrlNow(upstream),
    socketTimeoutSeconds: settings.socketTimeoutSeconds,
    versionArguments: ytDlp.versionArguments,
    installation: ytDlp.installation,
    versionDetected: ytDlp.detected,
    extraArgs: ytDlp.extraArgs,
    access: ytDlp.access,
    processes: settings.warmExtractorProcesses,
    wear: {
      maxLookups: settings.warmExtractorMaxLookups,
      maxResidentBytes: settings.warmExtractorMaxMemoryMb * 2 ** 20,
    },
    requestTimeoutMs: 120_000,
    logger,
    extractedInfo,
  };
}
