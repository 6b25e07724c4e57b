import { channelListUnits } from '../../domain/account/lookups.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import type { AccountReadProgress } from '../ports/account-read-progress.js';
import { ExtractorUnavailableError, VideoNotDownloadableError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import { type ChannelListing, ExtractionError, type Extractor } from '../ports/extractor.js';
import type { IdGenerator } from '../ports/id-generator.js';

export interface ListChannelInput {
  accountId: string;
  /** Already checked against the platform's channel URL forms. */
  channelUrl: string;
  maxVideos: number;
  correlationId?: string;
}

/**
 * `POST /list-channel`, synchronous. The units `maxVideos` could cost are
 * reserved on the account stream before the extractor runs (the add-on and
 * the allowance are checked there, race-free, so concurrent listings never
 * overspend), then settled to what the listing returned: one unit per 10
 * entries, rounded up. A failed listing releases them. The answer waits (bounded)
 * until the account's read model shows the charge or release, so the caller's next
 * `GET /me` counts it.
 */
export class ListChannel {
  constructor(
    private readonly accounts: AccountCommandHandler,
    private readonly extractor: Extractor,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly readProgress: AccountReadProgress | null = null,
  ) {}

  async execute(input: ListChannelInput): Promise<ChannelListing> {
    const lookupId = this.ids.next();
    const context = { correlationId: input.correlationId ?? lookupId };
    const units = channelListUnits(input.maxVideos);
    await this.accounts.handle(
      input.accountId,
      { type: 'ReserveLookup', data: { lookupId, feature: 'channel_list', units, subject: input.channelUrl, now: this.now() } },
      context,
    );
    let listing: ChannelListing;
    try {
      listing = await this.extractor.listChannel(input.channelUrl, { maxVideos: input.maxVideos });
    } catch (error) {
      const released = await this.accounts.handle(input.accountId, { type: 'ReleaseLookup', data: { lookupId, now: this.now() } }, context);
      await this.readProgress?.waitForRevision(input.accountId, released.revision);
      throw refusal(error);
    }
    const charged = await this.accounts.handle(
      input.accountId,
      { type: 'ChargeLookup', data: { lookupId, units: Math.min(units, channelListUnits(listing.entries.length)), now: this.now() } },
      context,
    );
    await this.readProgress?.waitForRevision(input.accountId, charged.revision);
    return listing;
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

/** A lasting refusal by the platform is the client's problem (400, its code in `details`); anything else is a 500 worth retrying. */
function refusal(error: unknown): Error {
  if (error instanceof ExtractionError && error.code !== null && error.code !== 'NETWORK_ERROR') {
    return new VideoNotDownloadableError(error.code, `The channel cannot be listed: ${error.message}`, error.details);
  }
  const details = error instanceof ExtractionError ? (error.details ?? error.message) : undefined;
  return new ExtractorUnavailableError('The video platform could not be reached; retry after a short backoff', details);
}
