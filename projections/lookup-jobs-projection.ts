import type { Knex } from 'knex';
import type { RecordedEvent } from '../application/ports/event-store.js';
import type { LookupJobKind } from '../application/lookups/lookup-job-view.js';
import { CLIENT_DOWNLOAD_JOB_EVENT_TYPES, type ClientDownloadJobEvent } from '../domain/lookup-job/client-download-job.js';
import { INFO_JOB_EVENT_TYPES, type InfoJobEvent } from '../domain/lookup-job/info-job.js';
import type { Projection } from './projection.js';

/**
 * `lookup_jobs`: one row per info or client-download job for polling, until
 * it expires (ExpiredLookupJobsSweeper deletes it then; the events stay).
 * Updates are guarded by the stream revision, so applying an event twice
 * changes nothing.
 */
export const lookupJobsProjection: Projection = {
  name: 'lookup_jobs',
  filter: { eventTypes: [...INFO_JOB_EVENT_TYPES, ...CLIENT_DOWNLOAD_JOB_EVENT_TYPES], streamPrefixes: ['info-', 'clientdownload-'] },
  tables: ['lookup_jobs'],
  async apply(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void> {
    for (const recorded of events) await applyOne(trx, recorded);
  },
};

async function applyOne(trx: Knex.Transaction, recorded: RecordedEvent): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as unknown as InfoJobEvent | ClientDownloadJobEvent;
  const kind: LookupJobKind = event.type.startsWith('Info') ? 'info' : 'client-download';
  const revision = recorded.revision;
  const update = (changes: Record<string, unknown>) =>
    trx('lookup_jobs')
      .where({ kind, job_id: event.data.jobId })
      .andWhere('last_revision', '<', revision)
      .update({ ...changes, last_revision: revision });
  switch (event.type) {
    case 'InfoRequested':
    case 'ClientDownloadRequested': {
      const d = event.data;
      await trx('lookup_jobs')
        .insert({ kind, job_id: d.jobId, account_id: d.accountId, status: 'pending', url: d.url, created_at: d.requestedAt, expires_at: d.expiresAt, last_revision: revision })
        .onConflict(['kind', 'job_id'])
        .ignore();
      return;
    }
    case 'InfoSucceeded':
    case 'ClientDownloadSucceeded':
      await update({ status: 'success', result: JSON.stringify(event.data.result) });
      return;
    case 'InfoFailed':
    case 'ClientDownloadFailed':
      await update({ status: 'failed', error: event.data.error, error_code: event.data.errorCode });
      return;
  }
}
