import { decideAccount } from '../../domain/account/decide.js';
import { channelListUnits } from '../../domain/account/lookups.js';
import type { RequestBatch } from '../../domain/batch/commands.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';
import { type BatchCommandHandler, batchCorrelation } from './batch-commands.js';

export type SubmitBatchInput = Omit<RequestBatch['data'], 'batchId' | 'now'>;

export interface SubmitBatchOutput {
  batchId: string;
  status: 'pending';
  message: string;
}

/**
 * `POST /download-batch`: the batch is written at once and its process lists
 * and admits its videos in the background. A listing needs the
 * `channel_list` add-on and the units its `maxVideos` could cost, as
 * `/list-channel` does: both are checked here first (a dry run of the
 * reservation the listing makes), so a batch that could not be listed is
 * refused with the same answer rather than accepted and then failed.
 */
export class SubmitBatch {
  constructor(
    private readonly accounts: AccountCommandHandler,
    private readonly batches: BatchCommandHandler,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: SubmitBatchInput): Promise<SubmitBatchOutput> {
    const batchId = this.ids.next();
    const now = this.clock.now().toISOString();
    if (input.source.kind !== 'urls') await this.checkListing(input, batchId, now);
    await this.batches.handle(
      batchId,
      { type: 'RequestBatch', data: { ...input, batchId, now } },
      batchCorrelation(batchId),
    );
    return {
      batchId,
      status: 'pending',
      message: `Batch accepted. Poll GET /download-batch/${batchId} until its status is completed, partial, failed or cancelled.`,
    };
  }

  /** Throws what the listing's reservation would: the add-on missing, or its units beyond the credit. */
  private async checkListing(input: SubmitBatchInput, batchId: string, now: string): Promise<void> {
    const { state } = await this.accounts.load(input.accountId);
    const subject = input.source.kind === 'urls' ? '' : input.source.url;
    const units = channelListUnits(input.maxVideos);
    decideAccount(
      { type: 'ReserveLookup', data: { lookupId: batchId, feature: 'channel_list', units, subject, now } },
      state,
    );
  }
}
