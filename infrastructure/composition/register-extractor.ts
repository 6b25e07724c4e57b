import type { Logger } from '../../application/ports/logger.js';
import type { Config } from '../config/config.js';
import { type YtDlpSetup, createYtDlpExtractor } from '../extractor/create-yt-dlp-extractor.js';
import { warmExtractorOptions } from '../extractor/warm/configure-warm-extractor.js';
import { PostgresExtractedInfoCache } from '../extractor/warm/extracted-info-cache.js';
import { WarmExtractor } from '../extractor/warm/warm-extractor.js';
import type { Container } from './container.js';
import { EXTRACTOR_CAPABILITIES, type ExtractorMethod, type WholeExtractor } from './extractor-capabilities.js';
import type { Overrides } from './overrides.js';
import type { Token } from './token.js';
import { TOKENS } from './tokens.js';

/**
 * yt-dlp, its warm helpers and a token per capability of the extractor, each made when first needed, so the
 * command-line tools never run yt-dlp. A capability is served by the first that has its method: the extractor a test
 * put in place, the warm helpers, the yt-dlp command line.
 */
export function registerExtractor(
  c: Container,
  config: Config,
  logger: Logger,
  overrides: Overrides,
): { close(): Promise<void> } {
  let ytDlpSetup: YtDlpSetup | null = null;
  c.singleton(
    TOKENS.ytDlp,
    () =>
      (ytDlpSetup =
        overrides.extractor === undefined
          ? createYtDlpExtractor(config.extractor, logger, c.resolve(TOKENS.metrics))
          : null),
  );
  // Helpers start on the first lookup, or when a role that looks videos up starts them; CLIs never do.
  let warmExtractor: WarmExtractor | null = null;
  c.singleton(TOKENS.warmExtractor, () => (warmExtractor = warmHelpers(c, config, logger)));
  for (const method of Object.keys(EXTRACTOR_CAPABILITIES) as ExtractorMethod[])
    registerCapability(c, method, () => servedBy(method, c, overrides.extractor));
  return {
    async close() {
      await warmExtractor?.close();
      await ytDlpSetup?.egress.close();
    },
  };
}

function registerCapability<Method extends ExtractorMethod>(
  c: Container,
  method: Method,
  serve: () => Pick<WholeExtractor, Method>,
): void {
  // A capability's port is its one method (checked where EXTRACTOR_CAPABILITIES is declared): what has it serves the port.
  const capability: Token<unknown> = EXTRACTOR_CAPABILITIES[method];
  c.singleton(capability as Token<Pick<WholeExtractor, Method>>, serve);
}

function servedBy<Method extends ExtractorMethod>(
  method: Method,
  c: Container,
  override: Partial<WholeExtractor> | undefined,
): Pick<WholeExtractor, Method> {
  if (override !== undefined) return serves(override, method) ? override : unserved(method);
  const warm: Partial<WholeExtractor> | null = c.resolve(TOKENS.warmExtractor);
  if (warm !== null && serves(warm, method)) return warm;
  const ytDlp = c.resolve(TOKENS.ytDlp);
  if (ytDlp === null) throw new Error('no extractor: yt-dlp was replaced but no extractor was given');
  const commandLine: WholeExtractor = ytDlp.extractor;
  return commandLine;
}

function serves<Method extends ExtractorMethod>(
  extractor: Partial<WholeExtractor>,
  method: Method,
): extractor is Pick<WholeExtractor, Method> {
  return typeof extractor[method] === 'function';
}

/** What a test's extractor lacks: refused when asked, as a double refuses what its test does not use. */
function unserved<Method extends ExtractorMethod>(method: Method): Pick<WholeExtractor, Method> {
  const refuse = () => Promise.reject(new Error(`the extractor put in place for this run has no ${method}`));
  return { [method]: refuse } as Pick<WholeExtractor, Method>;
}

function warmHelpers(c: Container, config: Config, logger: Logger): WarmExtractor | null {
  const ytDlp = c.resolve(TOKENS.ytDlp);
  if (ytDlp === null || !warmHelpersFit(config)) return null;
  const extractedInfo =
    config.extractor.extractedInfoTtlSeconds > 0
      ? new PostgresExtractedInfoCache(c.resolve(TOKENS.database), config.extractor.extractedInfoTtlSeconds * 1000)
      : undefined;
  return new WarmExtractor(ytDlp.extractor, warmExtractorOptions(config.extractor, ytDlp, logger, extractedInfo));
}

/**
 * A helper keeps one cookie jar for its life: a platform whose cookie pool holds several jars (several accounts,
 * rotated run by run) needs the command line's rotation, so lookups then run there. Proxy pools and per-platform
 * entries are served by helpers (see PlatformAccess.helperChoice).
 */
function warmHelpersFit(config: Config): boolean {
  if (config.extractor.warmExtractorProcesses === 0) return false;
  return Object.values(config.extractor.platformAccess.cookies).every((pool) => pool.length <= 1);
}
