import path from 'node:path';

export interface YtDlpArgumentsInput {
  /** A path to ffmpeg is passed on; a bare name is left to yt-dlp's own search of PATH. */
  ffmpegPath: string;
  socketTimeoutSeconds?: number;
  /** The proxy and cookie jar this run was given (see platform-access.ts). */
  accessArgs?: readonly string[];
  /** Options the installed version understands (see yt-dlp-version.ts). */
  versionArgs?: readonly string[];
  /** The operator's own options (YT_DLP_EXTRACTOR_ARGS); they come after the adapter's shared ones. */
  extraArgs?: readonly string[];
}

/** What a metadata lookup asks of yt-dlp, before the URL: the page's metadata as one JSON document. */
export const METADATA_ARGUMENTS: readonly string[] = ['-J', '--no-playlist'];

/**
 * The options every yt-dlp run shares, followed by the command's own. The
 * command line and the warm helpers (which hand the same vector to
 * yt_dlp.parse_options) both take them from here, so a lookup gets the same
 * settings whichever path answers it.
 */
export function composeYtDlpArguments(input: YtDlpArgumentsInput, commandArgs: readonly string[]): string[] {
  const shared = [
    '--ignore-config',
    '--no-cache-dir',
    '--socket-timeout',
    String(input.socketTimeoutSeconds ?? 20),
    '--retries',
    '3',
    '--fragment-retries',
    '3',
  ];
  if (input.ffmpegPath.includes(path.sep)) shared.push('--ffmpeg-location', input.ffmpegPath);
  return [
    ...shared,
    ...(input.accessArgs ?? []),
    ...(input.versionArgs ?? []),
    ...(input.extraArgs ?? []),
    ...commandArgs,
  ];
}
