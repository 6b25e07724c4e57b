import type { ChargeLookup, ReleaseLookup } from '../../domain/account/commands.js';
import { channelListUnits } from '../../domain/account/lookups.js';
import type { AccountCommandHandler } from '../accounts/account-commands.js';
import { ExtractorUnavailableError, ListingsBusyError, VideoNotDownloadableError } from '../errors.js';
import { FairSlots, SlotsFullError } from '../fair-slots.js';
import type { AccountReadProgress } from '../ports/account-read-progress.js';
import type { Clock } from '../ports/clock.js';
import type { ChannelLister, ChannelListing } from '../ports/extractor/channel-lister.js';
import { ExtractionError } from '../ports/extractor/extraction-error.js';
import type { IdGenerator } from '../ports/id-generator.js';
import { LISTING_SETTLE_RETRY, type OutageRetryPolicy, retryThroughOutage } from './retry-through-outage.js';

export interface ListChannelBounds {
  /** Listings of one account under way at once; more are refused at once. */
  perAccount: number;
  /** Listings under way at once across accounts; more are refused at once. */
  overall: number;
  /** How long one listing may run before it is stopped (and its units released); the releasers of listings count on it. */
  listingTimeoutMs: number;
}

export interface ListChannelInput {
  accountId: string;
  /** Already checked against the platform's channel URL forms. */
  channelUrl: string;
  maxVideos: number;
  correlationId?: string;
  /** Aborted when the client has gone: the listing stops, its units are released, and a settlement is not retried. */
  signal?: AbortSignal;
}

/** What a channel listing works with. */
export interface ListChannelDependencies {
  readonly accounts: AccountCommandHandler;
  readonly extractor: ChannelLister;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly bounds: ListChannelBounds;
  readonly readProgress?: AccountReadProgress | null;
  readonly settleRetry?: OutageRetryPolicy;
}

/**
 * `POST /list-channel`, synchronous. The units `maxVideos` could cost are reserved on the account stream before the
 * extractor runs (race-free, so concurrent listings never overspend), then settled to one unit per 10 entries returned,
 * or released if the listing fails. The settlement is retried through a short outage of the event store (a repeat
 * changes nothing), and a listing and its settlement are bounded in time, which lets the releasers tell a listing given
 * up from one under way. Listings run yt-dlp inside the request, so those under way are bounded per account and
 * overall, and one beyond either is refused at once (429) rather than queued behind other tenants' work. The answer
 * waits (bounded) until the account's read model shows the charge or release, so the caller's next `GET /me` counts it.
 */
export class ListChannel {
  private readonly slots: FairSlots;
  /** A running average of how long one listing takes, for Retry-After. */
  private averageMs = 5_000;

  private readonly accounts: AccountCommandHandler;
  private readonly extractor: ChannelLister;
  private readonly ids: IdGenerator;
  private readonly clock: Clock;
  private readonly bounds: ListChannelBounds;
  private readonly readProgress: AccountReadProgress | null;
  private readonly settleRetry: OutageRetryPolicy;

  constructor(dependencies: ListChannelDependencies) {
    ({
      accounts: this.accounts,
      extractor: this.extractor,
      ids: this.ids,
      clock: this.clock,
      bounds: this.bounds,
      readProgress: this.readProgress = null,
      settleRetry: this.settleRetry = LISTING_SETTLE_RETRY,
    } = dependencies);
    this.slots = new FairSlots({
      concurrency: this.bounds.overall,
      maxPerRequester: this.bounds.perAccount,
      maxWaiting: 0,
    });
  }

  async execute(input: ListChannelInput): Promise<ChannelListing> {
    try {
      return await this.slots.run(input.accountId, async () => {
        const started = Date.now();
        try {
          return await this.list(input);
        } finally {
          this.averageMs = 0.8 * this.averageMs + 0.2 * (Date.now() - started);
        }
      });
    } catch (error) {
      if (error instanceof SlotsFullError)
        throw new ListingsBusyError(error.scope, Math.max(1, Math.ceil(this.averageMs / 1000)));
      throw error;
    }
  }

  private async list(input: ListChannelInput): Promise<ChannelListing> {
    const lookupId = this.ids.next();
    const context = { correlationId: input.correlationId ?? lookupId };
    const units = channelListUnits(input.maxVideos);
    await this.accounts.handle(
      input.accountId,
      {
        type: 'ReserveLookup',
        data: { lookupId, feature: 'channel_list', units, subject: input.channelUrl, now: this.now() },
      },
      context,
    );
    let listing: ChannelListing;
    try {
      const signal = AbortSignal.any([
        AbortSignal.timeout(this.bounds.listingTimeoutMs),
        ...(input.signal === undefined ? [] : [input.signal]),
      ]);
      listing = await this.extractor.listChannel(input.channelUrl, { maxVideos: input.maxVideos, signal });
    } catch (error) {
      await this.settle(input, { type: 'ReleaseLookup', data: { lookupId, now: this.now() } }, context);
      throw refusal(error);
    }
    const charged = Math.min(units, channelListUnits(listing.entries.length));
    await this.settle(input, { type: 'ChargeLookup', data: { lookupId, units: charged, now: this.now() } }, context);
    return listing;
  }

  /** Charges or releases the reservation, through a short outage, then waits (bounded) until `GET /me` shows it. */
  private async settle(
    input: ListChannelInput,
    command: ChargeLookup | ReleaseLookup,
    context: { correlationId: string },
  ): Promise<void> {
    const settled = await retryThroughOutage(
      () => this.accounts.handle(input.accountId, command, context),
      this.settleRetry,
      input.signal,
    );
    await this.readProgress?.waitForRevision(input.accountId, settled.revision);
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

/** A lasting refusal by the platform is the client's problem (400, its code in `details`); anything else is a 500 worth retrying. */
function refusal(error: unknown): Error {
  if (error instanceof ExtractionError && error.code !== null && error.code !== 'NETWORK_ERROR') {
    const reason =
      error.code === 'VIDEO_NOT_FOUND'
        ? 'The channel was not found: it does not exist, was removed, or the link does not lead to one'
        : `The channel cannot be listed: ${error.message}`;
    return new VideoNotDownloadableError(error.code, reason, error.details);
  }
  if (!(error instanceof ExtractionError))
    return new ExtractorUnavailableError('The channel listing failed; retry after a short backoff');
  // The extractor's words for what happened; its own output rides along for the log.
  return new ExtractorUnavailableError(error.message, error.details ?? error.message);
}
