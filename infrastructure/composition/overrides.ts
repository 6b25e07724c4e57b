import type { Clock } from '../../application/ports/clock.js';
import type { ResolveHost } from '../webhooks/checked-address-lookup.js';
import type { WholeExtractor } from './extractor-capabilities.js';

/** What tests put in place of the real adapters. */
export interface Overrides {
  clock?: Clock;
  /** Serves the capabilities whose methods it has; those it lacks are refused when asked (yt-dlp is not run at all). */
  extractor?: Partial<WholeExtractor>;
  webhookResolver?: ResolveHost;
}
