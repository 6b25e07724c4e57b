import assert from 'node:assert/strict';
import type { Container } from '../../infrastructure/composition/container.js';
import { loadConfig } from '../../infrastructure/config/config.js';
import { lookupsFeature } from '../../infrastructure/features/lookups/lookups-feature.js';

describe('lookup work consumers', () => {
  it("let a message outlast an outage of the service's own infrastructure: deliveries are only a backstop, far beyond the attempts", () => {
    const config = loadConfig({});
    const container = { resolve: () => ({}) } as unknown as Container;
    const bounds = Object.fromEntries(
      Object.entries(lookupsFeature.work).map(([kind, handler]) => [kind, handler(container, config).maxDeliver]),
    );
    // One delivery a minute at the longest error backoff: the bound must outlast the reconciler's limit.
    const deliveriesWithinLimit = config.jobs.pendingLookupLimitMs / 60_000;
    for (const kind of ['info', 'client-download'])
      assert.ok(bounds[kind] > deliveriesWithinLimit, `${kind} allows ${bounds[kind]} deliveries`);
  });
});
