import type { Knex } from 'knex';
import type { BatchReadModel, BatchView } from '../../../application/batches/batch-read-model.js';
import { batchView } from '../../../application/batches/batch-view.js';
import type { RequestedBatchState } from '../../../domain/batch/state.js';

/** The batches' read model in PostgreSQL (or PGlite): the folded batch and its jobs' titles. */
export class PostgresBatchReadModel implements BatchReadModel {
  constructor(private readonly db: Knex) {}

  async get(batchId: string): Promise<BatchView | null> {
    const row = await this.db('batches').where({ batch_id: batchId }).first();
    if (row === undefined) return null;
    const state = (typeof row.state === 'string' ? JSON.parse(row.state) : row.state) as RequestedBatchState;
    const titles = new Map<string, string | null>(
      (await this.db('batch_job_titles').where({ batch_id: batchId }).select('job_id', 'title')).map(
        (title: { job_id: string; title: string | null }) => [title.job_id, title.title],
      ),
    );
    return batchView(state, row.listing_error ?? null, titles);
  }
}
