import { deletedFilesProjection } from '../../../projections/deleted-files-projection.js';
import type { FeatureModule } from '../../composition/feature-module.js';
import { createFileSweeper } from './create-file-sweeper.js';
import { RETENTION_TABLES } from './retention-tables.js';

/** Files older than FILE_RETENTION_SECONDS are deleted by the sweeper role. */
export const retentionFeature = {
  name: 'retention',
  // Its sweeper reads, and its indexes are on, the downloads' table.
  requires: ['downloads'],
  projections: [deletedFilesProjection],
  readModelSchema: RETENTION_TABLES,
  sweeperLoops: ({ container, config, logger }) =>
    config.retention.fileRetentionSeconds > 0
      ? [createFileSweeper(container, config.retention, config.storage, logger)]
      : [],
} satisfies FeatureModule;
