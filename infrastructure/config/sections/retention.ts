import { ConfigError } from '../config-error.js';
import type { EnvReader } from '../env-reader.js';
import { type ConfigSection, choice, integer } from '../variable.js';

/** How long links and produced files live. */
export interface RetentionSettings {
  downloadLinkTtlSeconds: number;
  /** Seconds a produced file is kept after completion; 0 keeps files for ever. */
  fileRetentionSeconds: number;
  fileSweepIntervalSeconds: number;
}

const DOWNLOAD_LINK_TTL_SECONDS = integer(
  'DOWNLOAD_LINK_TTL_SECONDS',
  6 * 3600,
  [60, 30 * 24 * 3600],
  "lifetime of a `downloadUrl`; each poll returns a fresh one, never valid past the file's deletion (see [File retention](#file-retention))",
  '`21600` (6 h)',
);
const FILE_RETENTION_SECONDS = integer(
  'FILE_RETENTION_SECONDS',
  24 * 3600,
  [0, 10 * 365 * 24 * 3600],
  "a job's files (the completed one, and any an attempt that never completed left) are deleted this long after the job completed or failed; `0` keeps them for ever. Fixes: the files disk filling up",
  '`86400` (24 h)',
);
const FILE_RETENTION_BELOW_LINK_TTL = choice(
  'FILE_RETENTION_BELOW_LINK_TTL',
  ['refuse', 'allow'],
  'refuse',
  "`allow` lets `FILE_RETENTION_SECONDS` be shorter than `DOWNLOAD_LINK_TTL_SECONDS`, which start-up refuses otherwise so a link handed out at completion keeps its full lifetime (links end at the file's deletion either way)",
);
const FILE_SWEEP_INTERVAL_SECONDS = integer(
  'FILE_SWEEP_INTERVAL_SECONDS',
  60,
  [1, 86_400],
  'how often the sweeper looks for expired files',
);

export const retentionSection: ConfigSection<RetentionSettings> = {
  title: 'Links and file retention',
  variables: [
    DOWNLOAD_LINK_TTL_SECONDS,
    FILE_RETENTION_SECONDS,
    FILE_RETENTION_BELOW_LINK_TTL,
    FILE_SWEEP_INTERVAL_SECONDS,
  ],
  load: (env) => ({
    downloadLinkTtlSeconds: DOWNLOAD_LINK_TTL_SECONDS.read(env),
    fileRetentionSeconds: fileRetention(env),
    fileSweepIntervalSeconds: FILE_SWEEP_INTERVAL_SECONDS.read(env),
  }),
};

/** A link issued at completion must stay good: retention shorter than the link lifetime needs the operator's word. */
function fileRetention(env: EnvReader): number {
  const fileRetentionSeconds = FILE_RETENTION_SECONDS.read(env);
  const linkTtlSeconds = DOWNLOAD_LINK_TTL_SECONDS.read(env);
  const shorterAllowed = FILE_RETENTION_BELOW_LINK_TTL.read(env) === 'allow';
  if (fileRetentionSeconds > 0 && fileRetentionSeconds < linkTtlSeconds && !shorterAllowed) {
    throw new ConfigError(
      'FILE_RETENTION_SECONDS',
      `(${fileRetentionSeconds}) is shorter than DOWNLOAD_LINK_TTL_SECONDS (${linkTtlSeconds}), so links would outlive their files; raise it or set FILE_RETENTION_BELOW_LINK_TTL=allow`,
    );
  }
  return fileRetentionSeconds;
}
