import type { Clock } from '../../application/ports/clock.js';
import type { Extractor } from '../../application/ports/extractor.js';
import type { ResolveHost } from '../webhooks/checked-address-lookup.js';

/** What tests put in place of the real adapters. */
export interface Overrides {
  clock?: Clock;
  extractor?: Extractor;
  webhookResolver?: ResolveHost;
}
