import { ConfigError } from '../config-error.js';
import { derive, group } from '../compose-settings.js';
import { section } from '../section.js';
import type { SettingValue } from '../setting.js';
import { choice, integer } from '../variable.js';

const DOWNLOAD_LINK_TTL_SECONDS = integer(
  'DOWNLOAD_LINK_TTL_SECONDS',
  6 * 3600,
  [60, 30 * 24 * 3600],
  "lifetime of a `downloadUrl`; each poll returns a fresh one, never valid past the file's deletion (see [File retention](#file-retention))",
  '`21600` (6 h)',
);

/** A link issued at completion must stay good: retention shorter than the link lifetime needs the operator's word. */
const fileRetention = derive(
  group({
    fileRetentionSeconds: integer(
      'FILE_RETENTION_SECONDS',
      24 * 3600,
      [0, 10 * 365 * 24 * 3600],
      "a job's files (the completed one, and any an attempt that never completed left) are deleted this long after the job completed or failed; `0` keeps them for ever. Fixes: the files disk filling up",
      '`86400` (24 h)',
    ),
    linkTtlSeconds: DOWNLOAD_LINK_TTL_SECONDS,
    belowLinkTtl: choice(
      'FILE_RETENTION_BELOW_LINK_TTL',
      ['refuse', 'allow'],
      'refuse',
      "`allow` lets `FILE_RETENTION_SECONDS` be shorter than `DOWNLOAD_LINK_TTL_SECONDS`, which start-up refuses otherwise so a link handed out at completion keeps its full lifetime (links end at the file's deletion either way)",
    ),
  }),
  ({ fileRetentionSeconds, linkTtlSeconds, belowLinkTtl }) => {
    if (fileRetentionSeconds > 0 && fileRetentionSeconds < linkTtlSeconds && belowLinkTtl !== 'allow') {
      throw new ConfigError(
        'FILE_RETENTION_SECONDS',
        `(${fileRetentionSeconds}) is shorter than DOWNLOAD_LINK_TTL_SECONDS (${linkTtlSeconds}), so links would outlive their files; raise it or set FILE_RETENTION_BELOW_LINK_TTL=allow`,
      );
    }
    return fileRetentionSeconds;
  },
);

/** How long links and produced files live. */
export const retentionSection = section('Links and file retention', {
  downloadLinkTtlSeconds: DOWNLOAD_LINK_TTL_SECONDS,
  /** Seconds a produced file is kept after completion; 0 keeps files for ever. */
  fileRetentionSeconds: fileRetention,
  fileSweepIntervalSeconds: integer(
    'FILE_SWEEP_INTERVAL_SECONDS',
    60,
    [1, 86_400],
    'how often the sweeper looks for expired files',
  ),
});

export type RetentionSettings = SettingValue<typeof retentionSection>;
