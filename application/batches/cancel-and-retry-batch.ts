import { NotFoundError } from '../../domain/errors.js';
import type { Clock } from '../ports/clock.js';
import { type BatchCommandHandler, batchCorrelation } from './batch-commands.js';

/**
 * `DELETE /download-batch/{id}` and `POST /download-batch/{id}/retry`: the
 * batch's own decisions; its process stops the running jobs of a cancelled
 * batch and submits the retried videos. Another account's batch is not found.
 */
export class ChangeBatch {
  constructor(
    private readonly batches: BatchCommandHandler,
    private readonly clock: Clock,
  ) {}

  cancel(accountId: string, batchId: string): Promise<void> {
    return this.send(accountId, batchId, 'CancelBatch');
  }

  retry(accountId: string, batchId: string): Promise<void> {
    return this.send(accountId, batchId, 'RetryBatch');
  }

  private async send(accountId: string, batchId: string, type: 'CancelBatch' | 'RetryBatch'): Promise<void> {
    const { state } = await this.batches.load(batchId);
    if (state.status === 'none' || state.request.accountId !== accountId)
      throw new NotFoundError(`Batch ${batchId} not found`);
    const now = this.clock.now().toISOString();
    await this.batches.handle(batchId, { type, data: { batchId, now } }, batchCorrelation(batchId));
  }
}
