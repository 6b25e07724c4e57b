import { statSync } from 'node:fs';
import type { Logger } from '../../application/ports/logger.js';
import {
  OPTION_SINCE,
  type YtDlpVersion,
  detectYtDlpVersion,
  supports,
  versionDependentArguments,
} from './yt-dlp-version.js';

/**
 * The yt-dlp program on disk and its version: asked at start-up, and again whenever a run finds the file replaced (a
 * self-update by another process on the host, or an upgrade). Each replacement is a new installation.
 */
export class YtDlpInstallation {
  private current: YtDlpVersion = { version: 'unknown', release: null, channel: 'unknown' };
  private seenChangeTime: number | null;
  private count = 0;
  private redetection: Promise<void> | null = null;

  constructor(
    private readonly ytDlpPath: string,
    private readonly log: Logger,
    private readonly exportVersion: (current: YtDlpVersion) => void,
    /** YT_DLP_EXTRACTORS: passed only to a version that understands it. */
    private readonly extractors: readonly string[] = [],
  ) {
    this.seenChangeTime = changeTimeOf(ytDlpPath);
  }

  version(): YtDlpVersion {
    return this.current;
  }

  /** The first detection, logged. */
  async detect(): Promise<void> {
    this.show(await detectYtDlpVersion(this.ytDlpPath));
    if (this.current.release === null)
      this.log.warn(
        { version: this.current.version },
        'could not tell the yt-dlp version; passing only the options every version understands',
      );
    else this.log.info({ version: this.current.version, channel: this.current.channel }, 'yt-dlp found');
    if (this.extractors.length > 0 && !supports(this.current, 'useExtractors'))
      this.log.warn(
        { version: this.current.version, since: OPTION_SINCE.useExtractors },
        'YT_DLP_EXTRACTORS is set, but this yt-dlp cannot be told which extractors to use: it tries all of them',
      );
  }

  /** The options the version understands, once a replaced program's version is known. */
  readonly versionArguments = async (): Promise<string[]> => {
    await this.redetectIfReplaced();
    return versionDependentArguments(this.current, process.execPath, this.extractors);
  };

  /** A number that grows each time the program is found replaced (its version known by then). */
  readonly installation = async (): Promise<number> => {
    await this.redetectIfReplaced();
    return this.count;
  };

  /** What a self-update found: a new installation when it replaced the file. */
  readonly updated = (found: YtDlpVersion): void => {
    const changed = changeTimeOf(this.ytDlpPath);
    if (changed !== this.seenChangeTime) this.count += 1;
    this.seenChangeTime = changed;
    this.show(found);
  };

  private show(found: YtDlpVersion): void {
    this.current = found;
    this.exportVersion(found);
  }

  // A stat per run costs microseconds against the run's tens of milliseconds at least; runs wait for the new version's answer.
  private redetectIfReplaced(): Promise<void> {
    const changed = changeTimeOf(this.ytDlpPath);
    if (changed !== this.seenChangeTime && this.redetection === null) {
      this.seenChangeTime = changed;
      this.redetection = detectYtDlpVersion(this.ytDlpPath)
        .then((found) => {
          this.show(found);
          this.count += 1;
          this.log.info(
            { version: found.version, channel: found.channel },
            'yt-dlp changed on disk; its options follow the new version',
          );
        })
        .finally(() => {
          this.redetection = null;
        });
    }
    return this.redetection ?? Promise.resolve();
  }
}

function changeTimeOf(file: string): number | null {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}
