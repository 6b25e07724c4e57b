import { CommandHandler } from '../../../application/command-handler.js';
import { SubmitDownload } from '../../../application/downloads/submit-download.js';
import type { ChannelListing } from '../../../application/ports/extractor/channel-lister.js';
import { AddSubscription } from '../../../application/subscriptions/add-subscription.js';
import { RunSubscriptionCheck } from '../../../application/subscriptions/run-subscription-check.js';
import { SubmitSubscriptionVideos } from '../../../application/subscriptions/submit-subscription-videos.js';
import {
  SUBSCRIPTION_PROCESS_FILTER,
  SubscriptionProcess,
} from '../../../application/subscriptions/subscription-process.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../domain/download-job/decider.js';
import { SUBSCRIPTION_CATEGORY, subscriptionDecider } from '../../../domain/subscription/decider.js';
import { ROSTER_CATEGORY, rosterDecider } from '../../../domain/subscription/roster.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../infrastructure/system/system-clock.js';
import { drainer, openStarterAccount, scriptedLookups } from '../../support/in-memory-use-cases.js';
import { ScriptedExtractor } from '../../support/scripted-extractor.js';

export const uploadUrl = (n: number) => `https://www.youtube.com/watch?v=upload${String(n).padStart(5, '0')}`;

/** The channel's newest `count` uploads, newest first. */
function listingOf(count: number): ChannelListing {
  return {
    id: 'UC1',
    title: 'A channel',
    channel: 'c',
    channel_id: 'UC1',
    channel_url: 'https://www.youtube.com/@c',
    entries: Array.from({ length: count }, (_, index) => ({
      id: `upload${String(count - index).padStart(5, '0')}`,
      title: `Upload ${count - index}`,
      url: uploadUrl(count - index),
      uploader: 'c',
    })),
  };
}

/**
 * The subscription use cases and their process over an in-memory store, with
 * a scripted channel that gains uploads (`upload`); `drain` hands the process
 * every event recorded since it last read, until it records no more, as the
 * service's processor does. `scheduled` lists the webhooks put on its schedule.
 */
export async function subscriptionHarness(options: { downloads?: number } = {}) {
  const store = new InMemoryEventStore();
  const ids = new RandomIds();
  const clock = new SystemClock();
  const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids);
  const jobs = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, ids);
  const subscriptions = new CommandHandler(store, subscriptionDecider, SUBSCRIPTION_CATEGORY, ids);
  const roster = new CommandHandler(store, rosterDecider, ROSTER_CATEGORY, ids);
  const now = () => clock.now().toISOString();
  const accountId = await openStarterAccount(accounts, clock, {
    downloads: options.downloads,
    addOns: ['channel_list'],
  });
  let uploads = 3;
  const extractor = new ScriptedExtractor({
    probe: async (url) => ({
      id: url.slice(-11),
      title: `Title of ${url.slice(-11)}`,
      duration: 30,
      liveStatus: null,
      tags: [],
    }),
    listChannel: async () => listingOf(uploads),
  });
  const { lookup, listChannel } = scriptedLookups(extractor, { accounts, ids, clock });
  const submission = new SubmitSubscriptionVideos({
    subscriptions,
    accounts,
    jobs,
    submitDownload: (jobId) => new SubmitDownload(accounts, jobs, lookup, { next: () => jobId }, clock),
    ids,
    clock,
  });
  const scheduled: string[] = [];
  const process = new SubscriptionProcess({
    subscriptions,
    roster,
    submission,
    clock,
    webhooks: {
      schedule: async (id) => {
        scheduled.push(id);
      },
      due: async () => [],
      done: async () => undefined,
    },
  });
  const identify = (url: string) => ({ videoId: url.slice(-11), videoUrl: url });
  const check = new RunSubscriptionCheck({ subscriptions, listChannel, identify, ids, clock, takeOverAfterMs: 70_000 });
  const add = new AddSubscription({ accounts, roster, subscriptions, ids, clock });
  const drain = drainer(store, SUBSCRIPTION_PROCESS_FILTER, (event) => process.react(event));
  const subscribe = (webhookUrl: string | null = null) =>
    add.execute({
      accountId,
      source: { kind: 'channel', url: 'https://www.youtube.com/@c' },
      format: 'audio',
      language: null,
      webhookUrl,
    });
  const upload = (count: number) => {
    uploads += count;
  };
  const jobsOf = async (subscriptionId: string) => {
    const { state } = await subscriptions.load(subscriptionId);
    if (state.status === 'none') return [];
    const written = [];
    for (const { jobId, videoUrl } of Object.values(state.submitted))
      if ((await jobs.load(jobId)).state.status !== 'NONE') written.push(videoUrl);
    return written.sort();
  };
  return { store, accounts, subscriptions, accountId, subscribe, check, drain, upload, jobsOf, scheduled, now };
}
