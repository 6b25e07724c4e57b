import type { ExtractorSettings } from '../infrastructure/config/sections/extractor.js';

/**
 * The options every hand-run yt-dlp of a bench starts with: no configuration file nor cache, as the service runs it,
 * and the same extractors the service may use (YT_DLP_EXTRACTORS), so a ratio compares the service's work with the
 * same command's rather than with yt-dlp trying every extractor it has.
 */
export function handRunOptions(extractor: ExtractorSettings): string[] {
  const limited = extractor.ytDlpExtractors.length > 0;
  return [
    '--ignore-config',
    '--no-cache-dir',
    ...(limited ? ['--use-extractors', extractor.ytDlpExtractors.join(',')] : []),
  ];
}
