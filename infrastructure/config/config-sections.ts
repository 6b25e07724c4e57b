import { accountsSection } from './sections/accounts.js';
import { extractorSection } from './sections/extractor.js';
import { httpSection } from './sections/http.js';
import { jobsSection } from './sections/jobs.js';
import { lookupsSection } from './sections/lookups.js';
import { observabilitySection } from './sections/observability.js';
import { platformsSection } from './sections/platforms.js';
import { queueSection } from './sections/queue.js';
import { rateLimitsSection } from './sections/rate-limits.js';
import { retentionSection } from './sections/retention.js';
import { securitySection } from './sections/security.js';
import { storageSection } from './sections/storage.js';
import { webhooksSection } from './sections/webhooks.js';

/**
 * The shared sections of the configuration, in the README's order. An entry here is all a section needs: the loaded
 * configuration gets a field of its name with the settings its declaration reads, and the README a table. A section
 * that only one feature reads is declared by that feature (`FeatureModule.config`) and follows these in the README.
 */
export const CONFIG_SECTIONS = {
  http: httpSection,
  storage: storageSection,
  queue: queueSection,
  jobs: jobsSection,
  extractor: extractorSection,
  lookups: lookupsSection,
  platforms: platformsSection,
  webhooks: webhooksSection,
  retention: retentionSection,
  rateLimits: rateLimitsSection,
  security: securitySection,
  accounts: accountsSection,
  observability: observabilitySection,
};
