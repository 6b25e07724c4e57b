import { existsSync } from 'node:fs';
import path from 'node:path';
import { section } from '../section.js';
import type { SettingValue } from '../setting.js';
import { choice, integer, list, optional, text, variable } from '../variable.js';
import { platformAccess } from './platform-access.js';
import { DATA_DIR } from './storage.js';

/** Where setup put the newest yt-dlp it could reach (`.data/bin/yt-dlp`), else Debian's package. */
export function installedYtDlpPath(dataDir = path.resolve('.data')): string {
  const installed = path.join(dataDir, 'bin', 'yt-dlp');
  return existsSync(installed) ? installed : '/usr/bin/yt-dlp';
}

export const extractorSection = section('Extractor (yt-dlp and ffmpeg)', {
  ytDlpPath: text(
    'YT_DLP_PATH',
    (env) => installedYtDlpPath(DATA_DIR.read(env)),
    'the yt-dlp binary',
    '`$DATA_DIR/bin/yt-dlp` if `npm run setup` put one there, else `/usr/bin/yt-dlp`',
  ),
  ffmpegPath: text('FFMPEG_PATH', '/usr/bin/ffmpeg', 'the ffmpeg binary'),
  ffprobePath: text('FFPROBE_PATH', '/usr/bin/ffprobe', 'the ffprobe binary'),
  ytDlpPythonPath: optional('YT_DLP_PYTHONPATH', 'where yt-dlp finds extractor plugins'),
  socketTimeoutSeconds: integer('EXTRACTOR_SOCKET_TIMEOUT_SECONDS', 20, [1, 600], "yt-dlp's socket timeout"),
  /** Targets (`host` or `host:port`) yt-dlp and ffmpeg may reach whatever address they resolve to (see infrastructure/egress). */
  egressAllow: list(
    'EGRESS_ALLOW',
    [],
    'hosts (or host:port) yt-dlp and ffmpeg may reach even when they resolve to a loopback, private or other non-public address (see [Outbound traffic: the egress rule](#outbound-traffic-the-egress-rule))',
  ),
  warmExtractorProcesses: integer(
    'WARM_EXTRACTOR_PROCESSES',
    2,
    [0, 32],
    'warm yt-dlp helper processes per API or worker process for metadata lookups (see "Metadata lookups" below); `0` runs `yt-dlp -J` for every lookup',
  ),
  /** A warm helper is replaced after this many lookups; 0: never. */
  warmExtractorMaxLookups: integer(
    'WARM_EXTRACTOR_MAX_LOOKUPS',
    500,
    [0, 1_000_000],
    "a warm helper is replaced after this many lookups (`0`: never): one `YoutubeDL` keeps every page's cookies and its extractors' caches, so a helper only grows, and a new one costs about a second once",
  ),
  /** A warm helper is replaced after a lookup that leaves it past this resident memory, in MiB; 0: never. */
  warmExtractorMaxMemoryMb: integer(
    'WARM_EXTRACTOR_MAX_MEMORY_MB',
    400,
    [0, 65_536],
    'a warm helper whose resident memory exceeds this after a lookup is replaced (`0`: never); a warmed-up one holds under 100 MB, so this is four times what it needs, well before the OOM killer would pick a process',
  ),
  /** `fork`: downloads fork from a warm yt-dlp in each worker process; `spawn`: each starts the command. */
  ytDlpDownloadProcess: choice(
    'YT_DLP_DOWNLOAD_PROCESS',
    ['fork', 'spawn'],
    'fork',
    '`fork`: each worker process keeps one yt-dlp running (Python up, `yt_dlp` and its extractors imported, ffmpeg probed) and forks every download from it, which spares each download about 0.3 s of CPU (see "Metadata lookups" below); `spawn` starts the `yt-dlp` command for each download',
  ),
  warmUp: choice(
    'EXTRACTOR_WARM_UP',
    ['at-start', 'first-use'],
    'at-start',
    '`first-use` starts the warm yt-dlp helpers (API) and the download fork server (worker) when a lookup or a download first needs them, not when the process starts: a process that never looks up nor downloads runs no Python. The first lookup waits for its helper (about what a `yt-dlp -J` costs); the first download starts the command as downloads do while no fork server is ready. Fits processes that start often and live briefly',
  ),
  extractedInfoTtlSeconds: integer(
    'EXTRACTED_INFO_TTL_SECONDS',
    300,
    [0, 3_600],
    "a page extracted at submission is kept this long (table `extracted_video_info`) for the job's download, which then starts from it instead of extracting it again; `0` turns this off",
  ),
  ytDlpUpdate: choice(
    'YT_DLP_UPDATE',
    ['off', 'stable', 'nightly'],
    'off',
    '`stable` or `nightly`: a standalone yt-dlp updates itself to that channel, between runs. Fixes: downloads failing once the platform changes and the installed yt-dlp falls behind',
  ),
  ytDlpUpdateIntervalHours: integer('YT_DLP_UPDATE_INTERVAL_HOURS', 24, [1, 24 * 30], 'how often that update runs'),
  /** Each passed as `--extractor-args` (PO-token providers, player clients). */
  ytDlpExtractorArgs: variable<string[]>({
    name: 'YT_DLP_EXTRACTOR_ARGS',
    doc: 'space-separated `IE_KEY:ARGS` values, each passed as `--extractor-args` (e.g. `youtube:player_client=default,mweb youtubepot-bgutilhttp:base_url=http://127.0.0.1:4416`). Fixes: "Sign in to confirm…" or missing formats that a PO-token provider plugin or another player client avoids',
    shownDefault: 'unset',
    fallback: () => [],
    parse: (raw) => raw.split(/\s+/).filter((entry) => entry !== ''),
  }),
  /** Passed as `--use-extractors` (from the yt-dlp release that has it on). */
  ytDlpExtractors: list(
    'YT_DLP_EXTRACTORS',
    [],
    "the extractors yt-dlp may use, as its `--use-extractors` takes them: names or regular expressions, comma-separated (e.g. `youtube.*,instagram.*,.*tiktok.*,facebook.*`); empty: all of them. yt-dlp otherwise matches every URL against some 1,800 extractors' patterns, and its generic extractor searches a page for every one's embedded players; limited, a lookup or download costs less CPU, and no URL reaches an extractor of a site the service does not serve. Needs yt-dlp 2022.09.01 or newer (an older one is warned about and tries all)",
  ),
  platformAccess,
});

export type ExtractorSettings = SettingValue<typeof extractorSection>;
