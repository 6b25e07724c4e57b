import type { BatchCommand } from '../../domain/batch/commands.js';
import type { BatchEvent } from '../../domain/batch/events.js';
import type { BatchState } from '../../domain/batch/state.js';
import type { CommandHandler } from '../command-handler.js';

/** The command handler of `batch-<batchId>` streams. */
export type BatchCommandHandler = CommandHandler<BatchCommand, BatchEvent, BatchState>;

/** Every command and job of a batch is correlated to the batch, so an auditor finds them together. */
export function batchCorrelation(batchId: string): { correlationId: string } {
  return { correlationId: `batch-${batchId}` };
}
