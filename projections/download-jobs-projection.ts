import type { Knex } from 'knex';
import type { RecordedEvent } from '../application/ports/event-store.js';
import type { DownloadJobEvent, DownloadRequested } from '../domain/download-job/events.js';
import { DOWNLOAD_JOB_EVENT_TYPES } from '../domain/download-job/events.js';
import type { Projection } from './projection.js';

/**
 * `download_jobs`: one row per job for polling. Each update is guarded by the
 * stream revision, so applying an event twice changes nothing.
 */
export const downloadJobsProjection: Projection = {
  name: 'download_jobs',
  filter: { eventTypes: DOWNLOAD_JOB_EVENT_TYPES, streamPrefixes: ['download-'] },
  tables: ['download_jobs'],
  async apply(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void> {
    // New jobs arrive in bursts: a batch's run of them is one multi-row insert, not a round trip each.
    let newJobs: Array<Record<string, unknown>> = [];
    const insertNewJobs = async () => {
      if (newJobs.length > 0) await trx('download_jobs').insert(newJobs).onConflict('job_id').ignore();
      newJobs = [];
    };
    for (const recorded of events) {
      if (recorded.type === 'DownloadRequested') {
        newJobs.push(newJobRow(recorded.data as unknown as DownloadRequested['data'], recorded.revision));
        continue;
      }
      await insertNewJobs();
      await applyOne(trx, recorded);
    }
    await insertNewJobs();
  },
};

function newJobRow(d: DownloadRequested['data'], revision: number): Record<string, unknown> {
  return {
    job_id: d.jobId,
    account_id: d.accountId,
    status: 'IN_QUEUE',
    url: d.url,
    format: d.format,
    language: d.language,
    title: d.title,
    duration: d.duration,
    webhook_url: d.webhookUrl,
    created_at: d.requestedAt,
    last_revision: revision,
  };
}

async function applyOne(trx: Knex.Transaction, recorded: RecordedEvent): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as unknown as DownloadJobEvent;
  const revision = recorded.revision;
  const update = (changes: Record<string, unknown>) =>
    trx('download_jobs')
      .where('job_id', event.data.jobId)
      .andWhere('last_revision', '<', revision)
      .update({ ...changes, last_revision: revision });
  switch (event.type) {
    case 'DownloadStarted':
      // The first start is when the job left the queue; later attempts keep it.
      await update({ status: 'IN_PROGRESS', started_at: trx.raw('coalesce(started_at, ?)', [event.data.startedAt]) });
      return;
    case 'DownloadCompleted': {
      const d = event.data;
      await update({
        status: 'COMPLETED',
        actual_format: d.actualFormat,
        file_key: d.fileKey,
        file_size: d.fileSize,
        file_extension: d.fileExtension,
        completed_at: d.completedAt,
      });
      return;
    }
    case 'DownloadFailed':
      await update({ status: 'FAILED', error_code: event.data.errorCode, failure_reason: event.data.reason, completed_at: event.data.failedAt });
      return;
  }
}
