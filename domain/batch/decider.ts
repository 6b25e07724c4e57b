import type { Decider } from '../decider.js';
import type { BatchCommand } from './commands.js';
import { decideBatch } from './decide.js';
import type { BatchEvent } from './events.js';
import { evolveBatch } from './evolve.js';
import { type BatchState, initialBatchState } from './state.js';

export const batchDecider: Decider<BatchCommand, BatchEvent, BatchState> = {
  decide: decideBatch,
  evolve: evolveBatch,
  initialState: initialBatchState,
};

/** Batches live in `batch-<batchId>`. */
export const BATCH_CATEGORY = 'batch';
