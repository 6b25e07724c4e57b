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
    // A job first seen in this batch is written once, with its later events in the batch folded in, and a batch's new
    // jobs go in one multi-row statement: bursts of submissions, catch-ups and rebuilds then cost a few round trips.
    const newJobs = new Map<string, Record<string, unknown>>();
    const laterEvents: RecordedEvent[] = [];
    for (const recorded of events) {
      const jobId = String(recorded.data.jobId);
      if (recorded.type === 'DownloadRequested') {
        newJobs.set(jobId, newJobRow(recorded.data as unknown as DownloadRequested['data'], recorded.revision));
        continue;
      }
      const row = newJobs.get(jobId);
      if (row === undefined) laterEvents.push(recorded);
      else foldIntoRow(row, recorded);
    }
    if (newJobs.size > 0) {
      // A row already there from an earlier revision (an event applied twice) is brought forward, never back.
      await trx('download_jobs')
        .insert([...newJobs.values()])
        .onConflict('job_id')
        .merge()
        .where('download_jobs.last_revision', '<', trx.raw('excluded.last_revision'));
    }
    for (const recorded of laterEvents) await applyOne(trx, recorded);
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

/** The columns an event sets; `started_at` is kept from the first start, since later attempts do not move it. */
function changesOf(event: DownloadJobEvent): Record<string, unknown> | null {
  switch (event.type) {
    case 'DownloadStarted':
      return { status: 'IN_PROGRESS', started_at: event.data.startedAt };
    case 'DownloadCompleted': {
      const d = event.data;
      return {
        status: 'COMPLETED',
        actual_format: d.actualFormat,
        file_key: d.fileKey,
        file_size: d.fileSize,
        file_extension: d.fileExtension,
        completed_at: d.completedAt,
      };
    }
    case 'DownloadFailed':
      return {
        status: 'FAILED',
        error_code: event.data.errorCode,
        failure_reason: event.data.reason,
        completed_at: event.data.failedAt,
      };
    default:
      return null;
  }
}

function asEvent(recorded: RecordedEvent): DownloadJobEvent {
  return { type: recorded.type, data: recorded.data } as unknown as DownloadJobEvent;
}

function foldIntoRow(row: Record<string, unknown>, recorded: RecordedEvent): void {
  const changes = changesOf(asEvent(recorded));
  if (changes === null) return;
  Object.assign(row, changes, {
    started_at: row.started_at ?? changes.started_at ?? null,
    last_revision: recorded.revision,
  });
}

async function applyOne(trx: Knex.Transaction, recorded: RecordedEvent): Promise<void> {
  const changes = changesOf(asEvent(recorded));
  if (changes === null) return;
  if (changes.started_at !== undefined)
    changes.started_at = trx.raw('coalesce(started_at, ?)', [changes.started_at as string]);
  await trx('download_jobs')
    .where('job_id', String(recorded.data.jobId))
    .andWhere('last_revision', '<', recorded.revision)
    .update({ ...changes, last_revision: recorded.revision });
}
