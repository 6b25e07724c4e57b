import { FIXTURE_GROWING_CHANNEL } from '../../test/fixtures/platform/fixture-list-catalog.js';
import type { FixturePlatform } from '../../test/fixtures/platform/fixture-platform.js';
import type { JobLedger } from './job-ledger.js';
import type { SeededRandom } from './seeded-random.js';
import type { SoakAccount } from './soak-accounts.js';
import type { SoakHttp } from './soak-http.js';

/** At most this many live subscriptions per account: each check-now takes every upload since its last check. */
const PER_ACCOUNT = 2;

/**
 * A client's subscriptions to the channel that gains uploads: create one,
 * then upload and check it now, pause, resume or delete it. What each
 * subscription submitted is judged afterwards from its stream.
 */
export class SubscriptionActions {
  constructor(
    private readonly http: SoakHttp,
    private readonly ledger: JobLedger,
    private readonly platform: FixturePlatform,
    private readonly random: SeededRandom,
  ) {}

  async act(account: SoakAccount): Promise<void> {
    const live = this.ledger.subscriptions.filter((item) => item.accountId === account.accountId && !item.deleted);
    if (live.length < PER_ACCOUNT && (live.length === 0 || this.random.chance(0.2))) return this.create(account);
    const subscription = this.random.pick(live);
    const path = `/subscriptions/${subscription.subscriptionId}`;
    const roll = this.random.between(1, 10);
    if (roll <= 7) {
      this.platform.addUpload(FIXTURE_GROWING_CHANNEL.handle);
      if (!subscription.paused) await this.http.send('POST', `${path}/check`, { key: account.apiKey });
      return;
    }
    if (roll <= 9) {
      const paused = !subscription.paused;
      const outcome = await this.http.send('PATCH', path, { key: account.apiKey, json: { paused } });
      if (outcome.status === 200) subscription.paused = paused;
      return;
    }
    // Marked first: a delete the service did not answer may have happened, and nothing may follow one that did.
    subscription.deleted = true;
    await this.http.send('DELETE', path, { key: account.apiKey });
  }

  private async create(account: SoakAccount): Promise<void> {
    const outcome = await this.http.send('POST', '/subscriptions', {
      key: account.apiKey,
      json: {
        channelUrl: this.platform.pageUrl(`/${FIXTURE_GROWING_CHANNEL.handle}`),
        format: 'audio',
        checkEveryMinutes: 15,
      },
    });
    if (outcome.status === 201)
      this.ledger.subscriptions.push({
        subscriptionId: outcome.body.subscriptionId,
        accountId: account.accountId,
        key: account.apiKey,
        createdAt: Date.now(),
        paused: false,
        deleted: false,
        checks: 0,
        jobs: 0,
      });
    else if (outcome.status !== null) this.ledger.refused('subscription', outcome.status);
  }

  /** Deletes every subscription not deleted yet, retrying one the service did not answer, so none checks after the load. */
  async deleteAll(): Promise<void> {
    for (const subscription of this.ledger.subscriptions.filter((item) => !item.deleted)) {
      subscription.deleted = true;
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const outcome = await this.http.send('DELETE', `/subscriptions/${subscription.subscriptionId}`, {
          key: subscription.key,
        });
        if (outcome.status !== null && outcome.status < 500) break;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }
}
