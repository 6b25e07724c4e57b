import type { BatchCommandHandler } from './batch-commands.js';
import type { BatchReadModel, BatchView } from './batch-read-model.js';
import { batchView } from './batch-view.js';

/**
 * `GET /download-batch/{id}`: from the read model, or from the batch's stream
 * while the read model has not caught up (a batch polled right after its
 * submission). Another account's batch, like one that does not exist, is
 * null (a 404).
 */
export class GetBatch {
  constructor(
    private readonly views: BatchReadModel,
    private readonly batches: BatchCommandHandler,
  ) {}

  async execute(accountId: string, batchId: string): Promise<BatchView | null> {
    const view = (await this.views.get(batchId)) ?? (await this.fromStream(batchId));
    return view === null || view.accountId !== accountId ? null : view;
  }

  private async fromStream(batchId: string): Promise<BatchView | null> {
    const { state } = await this.batches.load(batchId);
    return state.status === 'none' ? null : batchView(state, null, new Map());
  }
}
