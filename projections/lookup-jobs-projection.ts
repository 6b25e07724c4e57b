import type { Knex } from 'knex';
import type { RecordedEvent } from '../application/ports/event-store.js';
import type { LookupJobKind } from '../application/lookups/lookup-job-view.js';
import { CLIENT_DOWNLOAD_JOB, CLIENT_DOWNLOAD_JOB_EVENT_TYPES } from '../domain/lookup-job/client-download-job.js';
import type {
  LookupJobEvent,
  LookupJobFailed,
  LookupJobRequested,
  LookupJobSucceeded,
} from '../domain/lookup-job/events.js';
import { INFO_JOB, INFO_JOB_EVENT_TYPES } from '../domain/lookup-job/info-job.js';
import { type LookupJobEventTypes, lookupJobEventTypes } from '../domain/lookup-job/names.js';
import type { Projection } from './projection.js';

/**
 * `lookup_jobs`: one row per info or client-download job for polling, until
 * it expires (ExpiredLookupJobsSweeper deletes it then; the events stay).
 * Updates are guarded by the stream revision, so applying an event twice
 * changes nothing.
 */
export const lookupJobsProjection: Projection = {
  name: 'lookup_jobs',
  filter: {
    eventTypes: [...INFO_JOB_EVENT_TYPES, ...CLIENT_DOWNLOAD_JOB_EVENT_TYPES],
    streamPrefixes: [`${INFO_JOB.category}-`, `${CLIENT_DOWNLOAD_JOB.category}-`],
  },
  tables: ['lookup_jobs'],
  async apply(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void> {
    for (const recorded of events) await applyOne(trx, recorded);
  },
};

/** Each kind's event types, under the kind its rows are kept as. */
const KINDS: ReadonlyArray<{ kind: LookupJobKind; types: LookupJobEventTypes<string> }> = [
  { kind: 'info', types: lookupJobEventTypes(INFO_JOB.name) },
  { kind: 'client-download', types: lookupJobEventTypes(CLIENT_DOWNLOAD_JOB.name) },
];

async function applyOne(trx: Knex.Transaction, recorded: RecordedEvent): Promise<void> {
  const found = KINDS.find(({ types }) => (Object.values(types) as string[]).includes(recorded.type));
  if (found === undefined) return;
  const { kind, types } = found;
  const event = { type: recorded.type, data: recorded.data } as unknown as LookupJobEvent<string, unknown, unknown>;
  const revision = recorded.revision;
  const update = (changes: Record<string, unknown>) =>
    trx('lookup_jobs')
      .where({ kind, job_id: event.data.jobId })
      .andWhere('last_revision', '<', revision)
      .update({ ...changes, last_revision: revision });
  switch (event.type) {
    case types.requested: {
      const d = (event as LookupJobRequested<string, unknown>).data;
      await trx('lookup_jobs')
        .insert({
          kind,
          job_id: d.jobId,
          account_id: d.accountId,
          status: 'pending',
          url: d.url,
          created_at: d.requestedAt,
          expires_at: d.expiresAt,
          last_revision: revision,
        })
        .onConflict(['kind', 'job_id'])
        .ignore();
      return;
    }
    case types.succeeded:
      await update({
        status: 'success',
        result: JSON.stringify((event as LookupJobSucceeded<string, unknown>).data.result),
      });
      return;
    case types.failed: {
      const { error, errorCode } = (event as LookupJobFailed<string>).data;
      await update({ status: 'failed', error, error_code: errorCode });
      return;
    }
  }
}
