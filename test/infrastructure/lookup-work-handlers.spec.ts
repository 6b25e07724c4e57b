import assert from 'node:assert/strict';
import type { DependencyContainer } from 'tsyringe';
import { loadConfig } from '../../infrastructure/config/config.js';
import { lookupWorkHandlers } from '../../infrastructure/lookups-composition.js';

describe('lookup work consumers', () => {
  it('let a message outlast an outage of the service\'s own infrastructure: deliveries are only a backstop, far beyond the attempts', () => {
    const config = loadConfig({});
    const container = { resolve: () => ({}) } as unknown as DependencyContainer;
    const bounds = Object.fromEntries(lookupWorkHandlers(container, config).map(({ kind, maxDeliver }) => [kind, maxDeliver]));
    // One delivery a minute at the longest error backoff: the bound must outlast the reconciler's limit.
    const deliveriesWithinLimit = config.jobs.pendingLookupLimitMs / 60_000;
    for (const kind of ['info', 'client-download']) assert.ok(bounds[kind] > deliveriesWithinLimit, `${kind} allows ${bounds[kind]} deliveries`);
  });
});
