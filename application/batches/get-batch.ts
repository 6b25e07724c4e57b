import type { BatchReadModel, BatchView } from './batch-read-model.js';

/** `GET /download-batch/{id}`: another account's batch, like one that does not exist, is null (a 404). */
export class GetBatch {
  constructor(private readonly batches: BatchReadModel) {}

  async execute(accountId: string, batchId: string): Promise<BatchView | null> {
    const view = await this.batches.get(batchId);
    return view === null || view.accountId !== accountId ? null : view;
  }
}
