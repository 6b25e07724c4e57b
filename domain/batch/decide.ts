import { type DecisionsByType, decideByType } from '../decide-by-type.js';
import { NotFoundError } from '../errors.js';
import { admitVideos, refuseVideo } from './admission-decisions.js';
import { cancelBatch, retryBatch } from './cancel-and-retry-decisions.js';
import type { BatchCommand, RequestBatch } from './commands.js';
import type { BatchEvent } from './events.js';
import { failListing, recordListing, requestBatch } from './listing-decisions.js';
import { settleVideo } from './settlement-decisions.js';
import type { BatchContext, BatchState } from './state.js';

/** The commands a requested batch takes, from the account or from the process that runs it. */
const ON_REQUESTED_BATCH: DecisionsByType<Exclude<BatchCommand, RequestBatch>, BatchContext, BatchEvent> = {
  RecordListing: recordListing,
  FailListing: failListing,
  AdmitVideos: admitVideos,
  RefuseVideo: refuseVideo,
  SettleVideo: settleVideo,
  CancelBatch: cancelBatch,
  RetryBatch: retryBatch,
};

/**
 * One batch: its videos, listed once, are admitted one per free pending slot,
 * each gets one job (or one refusal), and the batch finishes once every video
 * is terminal. Commands from processes arrive at least once, so repeating
 * what already happened does nothing.
 */
export function decideBatch(command: BatchCommand, state: BatchState): BatchEvent[] {
  if (command.type === 'RequestBatch') return requestBatch(command.data, state);
  if (state.status === 'none') throw new NotFoundError(`Batch ${command.data.batchId} not found`);
  const { batchId, accountId } = state.request;
  return decideByType(ON_REQUESTED_BATCH, command, { state, batchId, accountId });
}
