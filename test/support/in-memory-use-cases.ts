import { randomUUID } from 'node:crypto';
import type { AccountCommandHandler } from '../../application/accounts/account-commands.js';
import { VideoLookup } from '../../application/downloads/video-lookup.js';
import { ListChannel } from '../../application/lookups/list-channel.js';
import type { Clock } from '../../application/ports/clock.js';
import type { Checkpoint, EventFilter, EventStore, RecordedEvent } from '../../application/ports/event-store.js';
import type { IdGenerator } from '../../application/ports/id-generator.js';
import type { AddOnId } from '../../domain/account/plan.js';
import { DEFAULT_PLAN_CATALOG } from '../../infrastructure/config/plan-catalog.js';
import type { ScriptedExtractor } from './scripted-extractor.js';

/** A starter account with `downloads` downloads a period (1,000 by default) and the add-ons given; its id. */
export async function openStarterAccount(
  accounts: AccountCommandHandler,
  clock: Clock,
  options: { downloads?: number; addOns?: AddOnId[] } = {},
): Promise<string> {
  const accountId = randomUUID();
  const starter = DEFAULT_PLAN_CATALOG.starter;
  const plan = { ...starter, allowances: { ...starter.allowances, download_count: options.downloads ?? 1000 } };
  await accounts.handle(accountId, {
    type: 'OpenAccount',
    data: {
      accountId,
      name: 'A',
      email: 'a@example.com',
      plan,
      addOns: options.addOns ?? [],
      now: clock.now().toISOString(),
    },
  });
  return accountId;
}

/** The submission's lookup and the channel listing over a scripted platform, with roomy bounds. */
export function scriptedLookups(
  extractor: ScriptedExtractor,
  deps: { accounts: AccountCommandHandler; ids: IdGenerator; clock: Clock },
) {
  const lookup = new VideoLookup(extractor, {
    ttlMs: 60_000,
    maxEntries: 1000,
    concurrency: 4,
    maxPerRequester: 1000,
    maxWaiting: 1000,
  });
  const listChannel = new ListChannel({
    ...deps,
    extractor,
    bounds: { perAccount: 2, overall: 4, listingTimeoutMs: 10_000 },
  });
  return { lookup, listChannel };
}

/** Hands a process every event recorded since it last read, until it records no more, as the service's processor does. */
export function drainer(
  store: EventStore,
  filter: EventFilter,
  react: (event: RecordedEvent) => Promise<void>,
): () => Promise<void> {
  let after: Checkpoint | null = null;
  return async () => {
    for (;;) {
      const events = await store.readAll({ after, filter });
      if (events.length === 0) return;
      for (const event of events) {
        await react(event);
        after = event.position;
      }
    }
  };
}
