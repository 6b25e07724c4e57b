import type { Knex } from 'knex';
import type { RecordedEvent } from '../application/ports/event-store.js';
import type { FailedJobFilesDeleted, FileDeleted } from '../domain/file-retention/events.js';
import { FILE_RETENTION_EVENT_TYPES } from '../domain/file-retention/events.js';
import { announceDownloadJobViewChange } from './download-job-view-changes.js';
import type { Projection } from './projection.js';

/** `deleted_files`: the jobs whose files the retention sweeper deleted (completed or failed), so it does not look at them again. */
export const deletedFilesProjection: Projection = {
  name: 'deleted_files',
  filter: { eventTypes: FILE_RETENTION_EVENT_TYPES, streamPrefixes: ['download-'] },
  tables: ['deleted_files'],
  async apply(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void> {
    for (const recorded of events) {
      const { jobId, accountId, deletedAt } = recorded.data as (FileDeleted | FailedJobFilesDeleted)['data'];
      await trx('deleted_files')
        .insert({ job_id: jobId, account_id: accountId, deleted_at: deletedAt })
        .onConflict('job_id')
        .ignore();
      // A poll shows no deletion today, but API processes keep finished jobs' views: they forget this one.
      await announceDownloadJobViewChange(trx, jobId);
    }
  },
};
