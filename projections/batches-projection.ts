import type { Knex } from 'knex';
import type { RecordedEvent } from '../application/ports/event-store.js';
import { BATCH_CATEGORY } from '../domain/batch/decider.js';
import { BATCH_EVENT_TYPES, type BatchEvent } from '../domain/batch/events.js';
import { evolveBatch } from '../domain/batch/evolve.js';
import { type BatchState, initialBatchState } from '../domain/batch/state.js';
import type { Projection } from './projection.js';

/**
 * `batches`: each batch folded by the batch's own `evolve`, so the view says
 * what the batch decides on; `batch_job_titles`: the title each job's lookup
 * found, for videos given as URLs. Guarded by the stream revision, so an
 * event applied twice changes nothing.
 */
export const batchesProjection: Projection = {
  name: 'batches',
  filter: { eventTypes: [...BATCH_EVENT_TYPES, 'DownloadRequested'], streamPrefixes: ['batch-', 'download-'] },
  tables: ['batches', 'batch_job_titles'],
  async apply(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void> {
    for (const recorded of events) {
      if (recorded.type === 'DownloadRequested') await applyTitle(trx, recorded);
      else if (recorded.streamName.startsWith(`${BATCH_CATEGORY}-`)) await applyBatchEvent(trx, recorded);
    }
  },
};

async function applyBatchEvent(trx: Knex.Transaction, recorded: RecordedEvent): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as unknown as BatchEvent;
  const { batchId, accountId } = event.data;
  const row = await trx('batches').where({ batch_id: batchId }).first();
  if (row !== undefined && row.last_revision >= recorded.revision) return;
  const before: BatchState = row === undefined ? initialBatchState() : (row.state as BatchState);
  const state = evolveBatch(before, event);
  const listingError = event.type === 'BatchListingFailed' ? event.data.reason : (row?.listing_error ?? null);
  const values = { state: JSON.stringify(state), listing_error: listingError, last_revision: recorded.revision };
  if (row === undefined) await trx('batches').insert({ batch_id: batchId, account_id: accountId, ...values });
  else await trx('batches').where({ batch_id: batchId }).update(values);
  if (event.type === 'BatchVideoAdmitted')
    await trx('batch_job_titles')
      .insert({ job_id: event.data.jobId, batch_id: batchId, title: null })
      .onConflict('job_id')
      .ignore();
}

/** A job a batch admitted is in `batch_job_titles` before its own first event; other jobs match no row. */
async function applyTitle(trx: Knex.Transaction, recorded: RecordedEvent): Promise<void> {
  const { jobId, title } = recorded.data as { jobId: string; title: string };
  await trx('batch_job_titles').where({ job_id: jobId }).update({ title });
}
