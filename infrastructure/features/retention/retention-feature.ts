import { deletedFilesProjection } from '../../../projections/deleted-files-projection.js';
import type { FeatureModule } from '../../composition/feature-module.js';
import { createFileSweeper } from '../../retention/create-file-sweeper.js';

/** Files older than FILE_RETENTION_SECONDS are deleted by the sweeper role. */
export const retentionFeature = {
  name: 'retention',
  projections: [deletedFilesProjection],
  sweeperLoops: ({ container, config, logger }) =>
    config.retention.fileRetentionSeconds > 0
      ? [createFileSweeper(container, config.retention, config.storage, logger)]
      : [],
} satisfies FeatureModule;
