import { randomUUID } from 'node:crypto';
import {
  FIXTURE_CHANNEL,
  FIXTURE_CLIENT_DOWNLOAD_PATHS,
  FIXTURE_VIDEOS,
  type FixturePlatform,
  type FixtureVideo,
} from '../../test/fixtures/platform/fixture-platform.js';
import type { JobLedger, TrackedJob } from './job-ledger.js';
import type { SeededRandom } from './seeded-random.js';
import type { SoakAccount } from './soak-accounts.js';
import type { SoakHttp } from './soak-http.js';
import { SubscriptionActions } from './subscription-actions.js';
import { RECEIVER_KINDS, type WebhookReceivers } from './webhook-receivers.js';

type Action =
  | 'download'
  | 'download-webhook'
  | 'info'
  | 'client-download'
  | 'list-channel'
  | 'cancel'
  | 'batch'
  | 'subscription';
const WEIGHTS: Record<Action, number> = {
  download: 22,
  'download-webhook': 20,
  info: 15,
  'client-download': 10,
  'list-channel': 5,
  cancel: 10,
  // 2 or 3 videos each. With the single downloads' weights lowered for them, the soak downloads about as much as
  // before batches, which two workers of two slots keep up with.
  batch: 4,
  // Each check now takes the uploads since the subscription's last check: a few downloads more.
  subscription: 4,
};
const VIDEOS = { clip: 60, slow: 15, broken: 10, voice: 15 } as const;

/** A video whose media the platform fails to serve, or a video format of an audio-only one, must end FAILED; every other must be downloaded. */
function expectationOf(video: FixtureVideo, format: string): TrackedJob['expected'] {
  if (video.mediaFailure !== undefined) return 'failure';
  return format !== 'audio' && video.heights.length === 0 ? 'failure' : 'success';
}

/** Retrying a download with the same Idempotency-Key is safe for this long; then the outcome stays unknown. */
const DOWNLOAD_RETRY_MS = 120_000;

/** The clients: several accounts submitting downloads (some with webhooks), lookups, listings, and cancelling. */
export class Workload {
  private readonly subscriptions: SubscriptionActions;

  constructor(
    private readonly http: SoakHttp,
    private readonly ledger: JobLedger,
    private readonly accounts: SoakAccount[],
    private readonly platform: FixturePlatform,
    private readonly receivers: WebhookReceivers,
    private readonly random: SeededRandom,
  ) {
    this.subscriptions = new SubscriptionActions(http, ledger, platform, random);
  }

  /** Acts on a seeded schedule until `until`; each action runs on its own, as separate clients would. */
  async run(until: number): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    while (Date.now() < until) {
      const action = this.random.weighted(WEIGHTS);
      const account = this.random.pick(this.accounts);
      const task = this.act(action, account).catch((error: unknown) =>
        console.error(`soak: ${action} failed in the client: ${String(error)}`),
      );
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
      // An action every 1.75 s on average: what two workers of two slots each keep up with on a small, shared machine,
      // so that queues drain between faults and recovery times measure the faults, not a backlog.
      await new Promise((resolve) => setTimeout(resolve, this.random.between(1_000, 2_500)));
    }
    await Promise.all(inFlight);
  }

  /** Ends the clients' subscriptions once the load is over: what they submitted is then fixed in their streams. */
  endSubscriptions(): Promise<void> {
    return this.subscriptions.deleteAll();
  }

  /** A plain download, as the canaries measuring recovery submit it. */
  download(account: SoakAccount, canary: boolean): Promise<TrackedJob | null> {
    return this.submitDownload(
      account,
      { url: this.platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio' },
      { webhook: null, canary, expected: 'success' },
    );
  }

  private async act(action: Action, account: SoakAccount): Promise<void> {
    switch (action) {
      case 'download':
      case 'download-webhook': {
        const video = FIXTURE_VIDEOS[this.random.weighted(VIDEOS)];
        const webhook = action === 'download-webhook' ? this.random.pick(RECEIVER_KINDS) : null;
        const format = this.random.pick(['audio', 'audio', '720']);
        const request = {
          url: this.platform.watchUrl(video.id),
          format,
          ...(webhook === null ? {} : { webhookUrl: this.receivers.url(webhook) }),
        };
        await this.submitDownload(account, request, { webhook, canary: false, expected: expectationOf(video, format) });
        return;
      }
      case 'info':
        await this.submitLookup('info', account, {
          url: this.platform.watchUrl(this.random.pick([FIXTURE_VIDEOS.clip.id, FIXTURE_VIDEOS.voice.id])),
          includeAudioTracks: this.random.chance(0.3),
        });
        return;
      case 'client-download':
        await this.submitLookup('client-download', account, {
          url: this.platform.pageUrl(FIXTURE_CLIENT_DOWNLOAD_PATHS['photo sharing /reel'](FIXTURE_VIDEOS.clip.id)),
        });
        return;
      case 'list-channel':
        await this.listChannel(account);
        return;
      case 'cancel':
        await this.cancel(account);
        return;
      case 'batch':
        await this.submitBatch(account);
        return;
      case 'subscription':
        await this.subscriptions.act(account);
        return;
    }
  }

  /** A list of URLs (no listing, so no listing charge), some with a `batch.finished` receiver. */
  private async submitBatch(account: SoakAccount): Promise<void> {
    const count = this.random.between(2, 3);
    const format = this.random.pick(['audio', 'audio', '720']);
    const videos = Array.from({ length: count }, () => FIXTURE_VIDEOS[this.random.weighted(VIDEOS)]).map((video) => ({
      url: this.platform.watchUrl(video.id),
      expected: expectationOf(video, format),
    }));
    const webhook = this.random.chance(0.5) ? this.random.pick(RECEIVER_KINDS) : null;
    const submittedAt = Date.now();
    const outcome = await this.http.send('POST', '/download-batch', {
      key: account.apiKey,
      json: {
        urls: videos.map((video) => video.url),
        format,
        ...(webhook === null ? {} : { batchWebhookUrl: this.receivers.url(webhook) }),
      },
    });
    if (outcome.status === 200 || outcome.status === 202) {
      this.ledger.batches.push({
        batchId: outcome.body.batchId,
        accountId: account.accountId,
        key: account.apiKey,
        videos,
        webhook,
        submittedAt,
        status: null,
        seen: [],
      });
      return;
    }
    if (outcome.status === null || outcome.status >= 500)
      this.ledger.unknownOutcomes.push({ kind: 'batch', accountId: account.accountId, at: submittedAt, jobs: count });
    if (outcome.status !== null) this.ledger.refused('batch', outcome.status);
  }

  private async submitDownload(
    account: SoakAccount,
    json: Record<string, unknown>,
    tracked: Pick<TrackedJob, 'webhook' | 'canary' | 'expected'>,
  ): Promise<TrackedJob | null> {
    const idempotencyKey = randomUUID();
    const deadline = Date.now() + DOWNLOAD_RETRY_MS;
    const submittedAt = Date.now();
    for (;;) {
      const outcome = await this.http.send('POST', '/download', {
        key: account.apiKey,
        json,
        headers: { 'Idempotency-Key': idempotencyKey },
      });
      if (outcome.status === 200)
        return this.ledger.add({
          kind: 'download',
          jobId: outcome.body.jobId,
          accountId: account.accountId,
          key: account.apiKey,
          submittedAt,
          ...tracked,
        });
      // 4xx: refused for good (the pending limit, a paused platform is a 500 below). 5xx and no answer: the same key again.
      if (outcome.status !== null && outcome.status < 500) {
        this.ledger.refused('download', outcome.status);
        return null;
      }
      if (Date.now() > deadline) {
        this.ledger.unknownOutcomes.push({ kind: 'download', accountId: account.accountId, at: submittedAt });
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  /** Without an idempotency key of their own, a lookup that got no answer is not sent again: its outcome stays unknown. */
  private async submitLookup(
    kind: 'info' | 'client-download',
    account: SoakAccount,
    json: Record<string, unknown>,
  ): Promise<void> {
    const submittedAt = Date.now();
    const outcome = await this.http.send('POST', `/${kind}`, { key: account.apiKey, json });
    if (outcome.status === 200) {
      this.ledger.add({
        kind,
        jobId: outcome.body.jobId,
        accountId: account.accountId,
        key: account.apiKey,
        webhook: null,
        submittedAt,
        canary: false,
        // Only working videos are looked up.
        expected: 'success',
      });
      return;
    }
    // A 5xx may come after the reservation was recorded (a database lost mid-request): as unknown as no answer.
    if (outcome.status === null || outcome.status >= 500)
      this.ledger.unknownOutcomes.push({ kind, accountId: account.accountId, at: submittedAt });
    if (outcome.status !== null) this.ledger.refused(kind, outcome.status);
  }

  private async listChannel(account: SoakAccount): Promise<void> {
    const submittedAt = Date.now();
    const outcome = await this.http.send('POST', '/list-channel', {
      key: account.apiKey,
      json: {
        channelUrl: this.platform.channelUrl(),
        maxVideos: this.random.between(1, FIXTURE_CHANNEL.videos.length),
      },
    });
    if (outcome.status === 200) {
      this.ledger.listed(account.accountId);
      return;
    }
    if (outcome.status === null || outcome.status >= 500)
      this.ledger.unknownOutcomes.push({ kind: 'list-channel', accountId: account.accountId, at: submittedAt });
    if (outcome.status !== null) this.ledger.refused('list-channel', outcome.status);
  }

  private async cancel(account: SoakAccount): Promise<void> {
    const candidates = this.ledger.jobs.filter(
      (job) =>
        job.kind === 'download' &&
        job.accountId === account.accountId &&
        !job.canary &&
        !this.ledger.isTerminal(job) &&
        !job.cancelled,
    );
    if (candidates.length === 0) return;
    const job = this.random.pick(candidates);
    job.cancelSent = true;
    const outcome = await this.http.send('DELETE', `/download/${job.jobId}`, { key: account.apiKey });
    if (outcome.status === 200) job.cancelled = true;
  }
}
