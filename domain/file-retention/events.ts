import type { DomainEvent } from '../decider.js';

/** The produced file of a completed job was deleted once its retention period ran out; its links now answer 410. */
export type FileDeleted = DomainEvent<'FileDeleted', { jobId: string; accountId: string; fileKey: string; deletedAt: string }>;

export const FILE_RETENTION_EVENT_TYPES = ['FileDeleted'] as const;
