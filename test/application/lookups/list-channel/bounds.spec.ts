import assert from 'node:assert/strict';
import type { AccountCommandHandler } from '../../../../application/accounts/account-commands.js';
import { ListingsBusyError } from '../../../../application/errors.js';
import { ListChannel } from '../../../../application/lookups/list-channel.js';
import { toErrorResponse } from '../../../../infrastructure/http/middleware/error-responses.js';
import { RandomIds } from '../../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../../infrastructure/system/system-clock.js';
import { ScriptedExtractor } from '../../../support/scripted-extractor.js';

/** Listings that run until the test lets them finish, like yt-dlp on a slow channel. */
class HeldListings {
  readonly started: string[] = [];
  private readonly release: Array<() => void> = [];

  readonly extractor = new ScriptedExtractor({
    listChannel: async (url) => {
      this.started.push(url);
      await new Promise<void>((resolve) => this.release.push(resolve));
      return { id: 'c', title: 'c', channel: 'c', channel_id: 'c', channel_url: url, entries: [] };
    },
  });

  finishAll(): void {
    for (const resolve of this.release.splice(0)) resolve();
  }
}

describe('POST /list-channel bounds: listings under way per account and overall', () => {
  function setUp() {
    const commands: string[] = [];
    const accounts = {
      handle: async (accountId: string, command: { type: string }) =>
        void commands.push(`${accountId}:${command.type}`),
    } as unknown as AccountCommandHandler;
    const held = new HeldListings();
    const listChannel = new ListChannel({
      accounts,
      extractor: held.extractor,
      ids: new RandomIds(),
      clock: new SystemClock(),
      bounds: {
        perAccount: 2,
        overall: 3,
        listingTimeoutMs: 60_000,
      },
    });
    const list = (accountId: string, name: string) =>
      listChannel.execute({ accountId, channelUrl: `https://www.youtube.com/@${name}`, maxVideos: 5 });
    return { commands, held, list };
  }
  const until = async (check: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!check()) {
      assert.ok(Date.now() < deadline, 'timed out');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  it('refuses an account’s listing beyond its share at once, with a 429 and Retry-After, reserving nothing; others still list', async () => {
    const { commands, held, list } = setUp();
    const running = [list('noisy', 'a'), list('noisy', 'b')];
    await until(() => held.started.length === 2);

    const refused = await list('noisy', 'c').then(
      () => assert.fail('a third listing of one account must be refused'),
      (error: unknown) => error,
    );
    assert.ok(refused instanceof ListingsBusyError);
    assert.equal(refused.scope, 'requester');
    const response = toErrorResponse(refused);
    assert.equal(response.status, 429);
    assert.match(response.error, /^Too many channel listings of this account are under way; retry after \d+ s$/);
    assert.match(response.headers?.['Retry-After'] ?? '', /^[1-9]\d*$/);
    assert.equal(
      commands.filter((command) => command.startsWith('noisy:ReserveLookup')).length,
      2,
      'the refused listing reserved nothing',
    );
    assert.equal(held.started.length, 2, 'and ran no extractor');

    // Another tenant still gets its listing started at once.
    const other = list('quiet', 'd');
    await until(() => held.started.length === 3);
    held.finishAll();
    await Promise.all([...running, other]);
  });

  it('refuses any listing beyond the overall bound until one finishes', async () => {
    const { held, list } = setUp();
    const running = [list('one', 'a'), list('two', 'b'), list('three', 'c')];
    await until(() => held.started.length === 3);
    await assert.rejects(
      list('four', 'd'),
      (error: unknown) =>
        error instanceof ListingsBusyError &&
        error.scope === 'everyone' &&
        /^Too many channel listings are under way/.test(error.message),
    );
    held.finishAll();
    await Promise.all(running);
    const again = list('four', 'd');
    await until(() => held.started.length === 4);
    held.finishAll();
    await again;
  });
});
