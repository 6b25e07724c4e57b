import type { Logger } from '../../application/ports/logger.js';
import { sleep } from '../system/sleep.js';
import { BackgroundLoop } from '../system/background-loop.js';
import { type ExclusiveGate, GateBusyError } from './exclusive-gate.js';
import { runProcess } from './run-process.js';
import { type YtDlpVersion, detectYtDlpVersion } from './yt-dlp-version.js';

export type YtDlpUpdateChannel = 'stable' | 'nightly';

const DEFAULT_DRAIN_WAIT_MS = 120_000;
/**
 * What yt-dlp answers when this installation cannot update itself at all (installed by pip or a package manager,
 * run from source, an unofficial build), as opposed to an update that failed this time (its server out of reach).
 */
const REFUSES_TO_UPDATE =
  /use (?:that|\w+) to update|re-download the latest release|use git to pull|cannot be updated|build the executable again/i;

/**
 * `YT_DLP_UPDATE`: a standalone yt-dlp replaces itself with the channel's
 * newest build every `intervalMs`, alone behind the gate, so never while one
 * of this process's downloads runs. yt-dlp installed by apt or pip refuses
 * (it says to use that package manager); that is logged once and not retried, while an update that failed (its
 * server out of reach, say) is tried again at the next interval.
 * Runs that start while it waits for the downloads under way are held back, so
 * it waits at most `drainWaitMs` (default 2 min) and otherwise tries again at
 * the next interval.
 */
export class YtDlpSelfUpdate extends BackgroundLoop {
  constructor(
    private readonly options: {
      ytDlpPath: string;
      channel: YtDlpUpdateChannel;
      intervalMs: number;
      gate: ExclusiveGate;
      logger: Logger;
      /** Told the version after each update that changed it. */
      onVersion: (version: YtDlpVersion) => void;
      drainWaitMs?: number;
    },
  ) {
    super();
  }

  /**
   * One update; false when this installation cannot update itself, throws when the update failed this time. Put off
   * (true) when downloads kept running.
   */
  async updateOnce(signal?: AbortSignal): Promise<boolean> {
    const { ytDlpPath, channel, gate, logger } = this.options;
    const drainWaitMs = this.options.drainWaitMs ?? DEFAULT_DRAIN_WAIT_MS;
    return gate
      .alone(
        async () => {
          // --ignore-config: a configuration file on the host (yt-dlp reads several) must not add options to the update, such as another --update-to.
          const result = await runProcess(ytDlpPath, ['--ignore-config', '--update-to', channel], {
            timeoutMs: 300_000,
            signal,
            maxStdoutChars: 100_000,
          });
          const output = `${result.stdout}\n${result.stderr}`.trim();
          if (result.code !== 0) {
            // Only an installation that refuses to update itself is given up on; a failed attempt comes again.
            if (!REFUSES_TO_UPDATE.test(output)) throw new Error(`yt-dlp's update failed: ${output.slice(-500)}`);
            logger.warn(
              { channel, output: output.slice(-500) },
              'yt-dlp could not update itself; updates are off for this process',
            );
            return false;
          }
          const version = await detectYtDlpVersion(ytDlpPath);
          logger.info({ channel, version: version.version }, 'yt-dlp update checked');
          this.options.onVersion(version);
          return true;
        },
        { maxWaitMs: drainWaitMs },
      )
      .catch((error: unknown) => {
        if (!(error instanceof GateBusyError)) throw error;
        logger.info(
          { channel, drainWaitMs },
          'yt-dlp update put off to the next interval: downloads were still running',
        );
        return true;
      });
  }

  protected async run(stop: AbortSignal): Promise<void> {
    while (!stop.aborted) {
      await sleep(this.options.intervalMs, stop);
      if (stop.aborted) return;
      try {
        if (!(await this.updateOnce(stop))) return;
      } catch (error) {
        if (!stop.aborted)
          this.options.logger.warn({ err: error }, 'yt-dlp update failed; trying again at the next interval');
      }
    }
  }
}
