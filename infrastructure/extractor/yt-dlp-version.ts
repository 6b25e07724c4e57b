import { statSync } from 'node:fs';
import { runProcess } from './run-process.js';

export interface YtDlpVersion {
  /** As the program prints it, e.g. `2023.03.04` or `2025.11.12.232815`; `unknown` when it could not be asked. */
  version: string;
  /** The release date part, comparable as text (`2025.11.12`); null when the version is not a date. */
  release: string | null;
  /** Nightly builds carry a time after the date. */
  channel: 'stable' | 'nightly' | 'unknown';
}

/**
 * The first release that understands each option the adapter may add. Older
 * versions stop with "no such option", so an option is passed only from its
 * release on; an unknown version gets none of them.
 */
export const OPTION_SINCE = {
  /** Lets yt-dlp solve YouTube's JavaScript challenges with Node instead of needing Deno. */
  jsRuntimes: '2025.11.12',
  /** Limits the extractors yt-dlp tries on a URL and a page (YT_DLP_EXTRACTORS). */
  useExtractors: '2022.09.01',
} as const;

export function parseYtDlpVersion(printed: string): YtDlpVersion {
  const version = printed.trim().split(/\s+/)[0] ?? '';
  const match = /^(\d{4})\.(\d{1,2})\.(\d{1,2})(?:\.(\d+))?$/.exec(version);
  if (match === null) return { version: version === '' ? 'unknown' : version, release: null, channel: 'unknown' };
  const [, year, month, day, build] = match;
  return {
    version,
    release: `${year}.${month.padStart(2, '0')}.${day.padStart(2, '0')}`,
    channel: build === undefined ? 'stable' : 'nightly',
  };
}

export function supports(version: YtDlpVersion, option: keyof typeof OPTION_SINCE): boolean {
  return version.release !== null && version.release >= OPTION_SINCE[option];
}

/** The options this yt-dlp gets because its version understands them; `extractors` is YT_DLP_EXTRACTORS. */
export function versionDependentArguments(
  version: YtDlpVersion,
  nodePath: string,
  extractors: readonly string[] = [],
): string[] {
  return [
    ...(supports(version, 'jsRuntimes') ? ['--js-runtimes', `node:${nodePath}`] : []),
    ...(extractors.length > 0 && supports(version, 'useExtractors') ? ['--use-extractors', extractors.join(',')] : []),
  ];
}

/** Versions asked of a program file, by the file's identity: a replaced file (an update, an upgrade) is asked again. */
const askedVersions = new Map<string, YtDlpVersion>();

/**
 * Asks the program itself, once per file while it stays the same file, so each service started in one process does
 * not pay Python's start-up again; a program that cannot say is reported as `unknown`, never as a failure (and asked
 * again next time).
 */
export async function detectYtDlpVersion(ytDlpPath: string, env?: NodeJS.ProcessEnv): Promise<YtDlpVersion> {
  const identity = env === undefined ? fileIdentity(ytDlpPath) : null;
  const asked = identity === null ? undefined : askedVersions.get(identity);
  if (asked !== undefined) return asked;
  try {
    const result = await runProcess(ytDlpPath, ['--version'], { env, timeoutMs: 30_000, maxStdoutChars: 1_000 });
    if (result.code === 0) {
      const version = parseYtDlpVersion(result.stdout);
      if (identity !== null) askedVersions.set(identity, version);
      return version;
    }
  } catch {
    // Not installed or not runnable: the extractor will say so on first use.
  }
  return { version: 'unknown', release: null, channel: 'unknown' };
}

/** Path, inode, size and change times: any of them moves when the file is replaced or rewritten. */
function fileIdentity(file: string): string | null {
  try {
    const { ino, size, mtimeMs, ctimeMs } = statSync(file);
    return [file, ino, size, mtimeMs, ctimeMs].join(':');
  } catch {
    return null;
  }
}
