import assert from 'node:assert/strict';
import { CommandHandler } from '../../../../application/command-handler.js';
import { ExtractorUnavailableError } from '../../../../application/errors.js';
import { ListChannel } from '../../../../application/lookups/list-channel.js';
import type { AppendOptions, AppendResult, EventToAppend } from '../../../../application/ports/event-store.js';
import type { ChannelLister, ChannelListing } from '../../../../application/ports/extractor/channel-lister.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../../domain/account/decider.js';
import { InMemoryEventStore } from '../../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { RandomIds } from '../../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../../infrastructure/system/system-clock.js';
import { ScriptedExtractor } from '../../../support/scripted-extractor.js';
import { givenAccount } from '../../../support/givens/given-account.js';

/** An event store whose appends of the listed event types fail while `outage` lasts, as during a database restart. */
class OutageStore extends InMemoryEventStore {
  outage = { types: [] as string[], failures: 0, afterCommit: false };
  readonly failed: string[] = [];

  override async appendToStream(
    streamName: string,
    events: readonly EventToAppend[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    const hit = this.outage.failures > 0 && events.some((event) => this.outage.types.includes(event.type));
    if (!hit) return super.appendToStream(streamName, events, options);
    this.outage.failures -= 1;
    this.failed.push(events[0]?.type ?? 'nothing');
    // A commit whose answer was lost: the retry must find the settlement done and change nothing.
    if (this.outage.afterCommit) await super.appendToStream(streamName, events, options);
    throw new Error('Connection terminated unexpectedly');
  }
}

const listing = (entries: number): ChannelListing => ({
  id: 'c',
  title: 'c',
  channel: 'c',
  channel_id: 'c',
  channel_url: 'https://www.youtube.com/@c',
  entries: Array.from({ length: entries }, (_, index) => ({
    id: `v${index}`,
    title: `v${index}`,
    url: `https://www.youtube.com/watch?v=v${index}`,
    uploader: 'c',
  })),
});

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, 'timed out');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('POST /list-channel settles its reservation through a short outage of the event store, and when its listing is stopped', () => {
  async function setUp(listChannel: ChannelLister['listChannel'], listingTimeoutMs = 60_000) {
    const store = new OutageStore();
    const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, new RandomIds());
    const accountId = await givenAccount(store, { addOns: ['channel_list'] });
    const extractor = new ScriptedExtractor({ listChannel });
    const retry = { withinMs: 2_000, initialDelayMs: 1, maxDelayMs: 20 };
    const service = new ListChannel({
      accounts,
      extractor,
      ids: new RandomIds(),
      clock: new SystemClock(),
      bounds: { perAccount: 2, overall: 2, listingTimeoutMs },
      readProgress: null,
      settleRetry: retry,
    });
    const list = (maxVideos: number, signal?: AbortSignal) =>
      service.execute({
        accountId,
        channelUrl: 'https://www.youtube.com/@c',
        maxVideos,
        ...(signal === undefined ? {} : { signal }),
      });
    const account = async () => (await accounts.load(accountId)).state;
    const eventTypes = async () =>
      (await store.readStream(`${ACCOUNT_CATEGORY}-${accountId}`)).map((event) => event.type);
    return { store, list, account, eventTypes };
  }

  it('charges once when the charge fails a few times before the database is back', async () => {
    const { store, list, account, eventTypes } = await setUp(async () => listing(25));
    store.outage = { types: ['LookupCharged'], failures: 3, afterCommit: false };

    const answer = await list(50);

    assert.equal(answer.entries.length, 25);
    assert.deepEqual(store.failed, ['LookupCharged', 'LookupCharged', 'LookupCharged']);
    const state = await account();
    assert.deepEqual(state.pendingLookups ?? [], [], 'no reservation left open');
    assert.equal(state.usage.channel_list, 3, 'ceil(25 / 10) units, once');
    assert.equal((await eventTypes()).filter((type) => type === 'LookupCharged').length, 1);
  });

  it('charges once when a charge committed but its answer was lost', async () => {
    const { store, list, account, eventTypes } = await setUp(async () => listing(5));
    store.outage = { types: ['LookupCharged'], failures: 1, afterCommit: true };

    await list(30);

    assert.deepEqual(store.failed, ['LookupCharged']);
    assert.equal((await account()).usage.channel_list, 1);
    assert.equal((await eventTypes()).filter((type) => type === 'LookupCharged').length, 1);
  });

  it('releases a failed listing through the outage and still answers the listing’s error', async () => {
    const { store, list, account, eventTypes } = await setUp(async () => {
      throw new Error('network down');
    });
    store.outage = { types: ['LookupReleased'], failures: 2, afterCommit: false };

    await assert.rejects(list(10), ExtractorUnavailableError);

    assert.equal(store.failed.length, 2);
    const state = await account();
    assert.deepEqual(state.pendingLookups ?? [], []);
    assert.equal(state.usage.channel_list, 0);
    assert.equal((await eventTypes()).filter((type) => type === 'LookupReleased').length, 1);
  });

  it('gives up when the outage outlasts the retry bound, leaving the reservation to the releasers', async () => {
    const { store, list, account } = await setUp(async () => listing(1));
    store.outage = { types: ['LookupCharged'], failures: Number.POSITIVE_INFINITY, afterCommit: false };

    await assert.rejects(list(10), /Connection terminated unexpectedly/);

    assert.ok(store.failed.length > 1, 'retried before giving up');
    assert.equal((await account()).pendingLookups?.length, 1);
  });

  it('stops retrying once the client has gone', async () => {
    const gone = new AbortController();
    const { store, list, account } = await setUp(async () => listing(1));
    store.outage = { types: ['LookupCharged'], failures: Number.POSITIVE_INFINITY, afterCommit: false };
    const original = store.appendToStream.bind(store);
    store.appendToStream = async (...args) => {
      // The client closes its connection while the first charge fails.
      if (args[1].some((event) => event.type === 'LookupCharged')) gone.abort();
      return original(...args);
    };

    await assert.rejects(list(10, gone.signal), /Connection terminated unexpectedly/);

    assert.equal(store.failed.length, 1, 'one attempt, no retries after the abort');
    assert.equal((await account()).pendingLookups?.length, 1);
  });
  /** A listing that runs until its signal aborts, as yt-dlp on a channel that never ends. */
  const endless: ChannelLister['listChannel'] = (_url, options) =>
    new Promise((_resolve, reject) =>
      options.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true }),
    );

  it('stops a listing at its timeout and releases its units', async () => {
    const { list, account } = await setUp(endless, 50);
    await assert.rejects(list(10), ExtractorUnavailableError);
    const state = await account();
    assert.deepEqual(state.pendingLookups ?? [], []);
    assert.equal(state.usage.channel_list, 0);
  });

  it('stops a listing whose client has gone and releases its units', async () => {
    const gone = new AbortController();
    const { list, account } = await setUp(endless);
    const listing = list(10, gone.signal);
    await until(async () => ((await account()).pendingLookups ?? []).length === 1);
    gone.abort();
    await assert.rejects(listing, ExtractorUnavailableError);
    assert.deepEqual((await account()).pendingLookups ?? [], []);
  });
});
