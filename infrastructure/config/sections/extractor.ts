import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ConfigSection, choice, custom, integer, list, optional, text } from '../variable.js';
import { type PlatformAccessSettings, platformAccessVariables, readPlatformAccess } from './platform-access.js';
import { DATA_DIR } from './storage.js';

export interface ExtractorSettings {
  ytDlpPath: string;
  ffmpegPath: string;
  ffprobePath: string;
  ytDlpPythonPath: string | undefined;
  socketTimeoutSeconds: number;
  /** Targets (`host` or `host:port`) yt-dlp and ffmpeg may reach whatever address they resolve to (see infrastructure/egress). */
  egressAllow: string[];
  warmExtractorProcesses: number;
  /** A warm helper is replaced after this many lookups; 0: never. */
  warmExtractorMaxLookups: number;
  /** A warm helper is replaced after a lookup that leaves it past this resident memory, in MiB; 0: never. */
  warmExtractorMaxMemoryMb: number;
  /** `fork`: downloads fork from a warm yt-dlp in each worker process; `spawn`: each starts the command. */
  ytDlpDownloadProcess: 'fork' | 'spawn';
  extractedInfoTtlSeconds: number;
  ytDlpUpdate: 'off' | 'stable' | 'nightly';
  ytDlpUpdateIntervalHours: number;
  /** Each passed as `--extractor-args` (PO-token providers, player clients). */
  ytDlpExtractorArgs: string[];
  platformAccess: PlatformAccessSettings;
}

/** Where setup put the newest yt-dlp it could reach (`.data/bin/yt-dlp`), else Debian's package. */
export function installedYtDlpPath(dataDir = path.resolve('.data')): string {
  const installed = path.join(dataDir, 'bin', 'yt-dlp');
  return existsSync(installed) ? installed : '/usr/bin/yt-dlp';
}

const YT_DLP_PATH = text(
  'YT_DLP_PATH',
  (env) => installedYtDlpPath(DATA_DIR.read(env)),
  'the yt-dlp binary',
  '`$DATA_DIR/bin/yt-dlp` if `npm run setup` put one there, else `/usr/bin/yt-dlp`',
);
const FFMPEG_PATH = text('FFMPEG_PATH', '/usr/bin/ffmpeg', 'the ffmpeg binary');
const FFPROBE_PATH = text('FFPROBE_PATH', '/usr/bin/ffprobe', 'the ffprobe binary');
const YT_DLP_PYTHONPATH = optional('YT_DLP_PYTHONPATH', 'where yt-dlp finds extractor plugins');
const EXTRACTOR_SOCKET_TIMEOUT_SECONDS = integer(
  'EXTRACTOR_SOCKET_TIMEOUT_SECONDS',
  20,
  [1, 600],
  "yt-dlp's socket timeout",
);
const EGRESS_ALLOW = list(
  'EGRESS_ALLOW',
  [],
  'hosts (or host:port) yt-dlp and ffmpeg may reach even when they resolve to a loopback, private or other non-public address (see [Outbound traffic: the egress rule](#outbound-traffic-the-egress-rule))',
);
const WARM_EXTRACTOR_PROCESSES = integer(
  'WARM_EXTRACTOR_PROCESSES',
  2,
  [0, 32],
  'warm yt-dlp helper processes per API or worker process for metadata lookups (see "Metadata lookups" below); `0` runs `yt-dlp -J` for every lookup',
);
const WARM_EXTRACTOR_MAX_LOOKUPS = integer(
  'WARM_EXTRACTOR_MAX_LOOKUPS',
  500,
  [0, 1_000_000],
  "a warm helper is replaced after this many lookups (`0`: never): one `YoutubeDL` keeps every page's cookies and its extractors' caches, so a helper only grows, and a new one costs about a second once",
);
const WARM_EXTRACTOR_MAX_MEMORY_MB = integer(
  'WARM_EXTRACTOR_MAX_MEMORY_MB',
  400,
  [0, 65_536],
  'a warm helper whose resident memory exceeds this after a lookup is replaced (`0`: never); a warmed-up one holds under 100 MB, so this is four times what it needs, well before the OOM killer would pick a process',
);
const YT_DLP_DOWNLOAD_PROCESS = choice(
  'YT_DLP_DOWNLOAD_PROCESS',
  ['fork', 'spawn'],
  'fork',
  '`fork`: each worker process keeps one yt-dlp running (Python up, `yt_dlp` and its extractors imported, ffmpeg probed) and forks every download from it, which spares each download about 0.3 s of CPU (see "Metadata lookups" below); `spawn` starts the `yt-dlp` command for each download',
);
const EXTRACTED_INFO_TTL_SECONDS = integer(
  'EXTRACTED_INFO_TTL_SECONDS',
  300,
  [0, 3_600],
  "a page extracted at submission is kept this long (table `extracted_video_info`) for the job's download, which then starts from it instead of extracting it again; `0` turns this off",
);
const YT_DLP_UPDATE = choice(
  'YT_DLP_UPDATE',
  ['off', 'stable', 'nightly'],
  'off',
  '`stable` or `nightly`: a standalone yt-dlp updates itself to that channel, between runs. Fixes: downloads failing once the platform changes and the installed yt-dlp falls behind',
);
const YT_DLP_UPDATE_INTERVAL_HOURS = integer(
  'YT_DLP_UPDATE_INTERVAL_HOURS',
  24,
  [1, 24 * 30],
  'how often that update runs',
);
const YT_DLP_EXTRACTOR_ARGS = custom(
  'YT_DLP_EXTRACTOR_ARGS',
  'space-separated `IE_KEY:ARGS` values, each passed as `--extractor-args` (e.g. `youtube:player_client=default,mweb youtubepot-bgutilhttp:base_url=http://127.0.0.1:4416`). Fixes: "Sign in to confirm…" or missing formats that a PO-token provider plugin or another player client avoids',
  'unset',
  (env) => (env.optional('YT_DLP_EXTRACTOR_ARGS') ?? '').split(/\s+/).filter((entry) => entry !== ''),
);

export const extractorSection: ConfigSection<ExtractorSettings> = {
  title: 'Extractor (yt-dlp and ffmpeg)',
  variables: [
    YT_DLP_PATH,
    FFMPEG_PATH,
    FFPROBE_PATH,
    YT_DLP_PYTHONPATH,
    EXTRACTOR_SOCKET_TIMEOUT_SECONDS,
    EGRESS_ALLOW,
    WARM_EXTRACTOR_PROCESSES,
    WARM_EXTRACTOR_MAX_LOOKUPS,
    WARM_EXTRACTOR_MAX_MEMORY_MB,
    YT_DLP_DOWNLOAD_PROCESS,
    EXTRACTED_INFO_TTL_SECONDS,
    YT_DLP_UPDATE,
    YT_DLP_UPDATE_INTERVAL_HOURS,
    YT_DLP_EXTRACTOR_ARGS,
    ...platformAccessVariables,
  ],
  load: (env) => ({
    ytDlpPath: YT_DLP_PATH.read(env),
    ffmpegPath: FFMPEG_PATH.read(env),
    ffprobePath: FFPROBE_PATH.read(env),
    ytDlpPythonPath: YT_DLP_PYTHONPATH.read(env),
    socketTimeoutSeconds: EXTRACTOR_SOCKET_TIMEOUT_SECONDS.read(env),
    egressAllow: EGRESS_ALLOW.read(env),
    warmExtractorProcesses: WARM_EXTRACTOR_PROCESSES.read(env),
    warmExtractorMaxLookups: WARM_EXTRACTOR_MAX_LOOKUPS.read(env),
    warmExtractorMaxMemoryMb: WARM_EXTRACTOR_MAX_MEMORY_MB.read(env),
    ytDlpDownloadProcess: YT_DLP_DOWNLOAD_PROCESS.read(env),
    extractedInfoTtlSeconds: EXTRACTED_INFO_TTL_SECONDS.read(env),
    ytDlpUpdate: YT_DLP_UPDATE.read(env),
    ytDlpUpdateIntervalHours: YT_DLP_UPDATE_INTERVAL_HOURS.read(env),
    ytDlpExtractorArgs: YT_DLP_EXTRACTOR_ARGS.read(env),
    platformAccess: readPlatformAccess(env),
  }),
};
