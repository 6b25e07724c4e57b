import type { DomainEvent } from '../decider.js';

/** The produced file of a completed job was deleted once its retention period ran out; its links now answer 410. */
export type FileDeleted = DomainEvent<
  'FileDeleted',
  { jobId: string; accountId: string; fileKey: string; deletedAt: string }
>;

/**
 * A failed job's retention period ran out and whatever files its attempts
 * stored (a worker that died between storing and completing leaves one) were
 * deleted; none was ever served.
 */
export type FailedJobFilesDeleted = DomainEvent<
  'FailedJobFilesDeleted',
  { jobId: string; accountId: string; deletedAt: string }
>;

export const FILE_RETENTION_EVENT_TYPES = ['FileDeleted', 'FailedJobFilesDeleted'] as const;
