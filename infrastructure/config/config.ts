import { ConfigError } from './config-error.js';
import { type Env, EnvReader } from './env-reader.js';
import type { ConfigSection } from './variable.js';
import { type AccountSettings, accountsSection } from './sections/accounts.js';
import { type EventStreamSettings, eventStreamsSection } from './sections/event-streams.js';
import { type ExtractorSettings, extractorSection } from './sections/extractor.js';
import { type HttpSettings, httpSection } from './sections/http.js';
import { type JobSettings, jobsSection } from './sections/jobs.js';
import { type LookupSettings, lookupsSection } from './sections/lookups.js';
import { type ObservabilitySettings, observabilitySection } from './sections/observability.js';
import { type PlatformSettings, platformsSection } from './sections/platforms.js';
import { type QueueSettings, queueSection } from './sections/queue.js';
import { type RateLimitSection, rateLimitsSection } from './sections/rate-limits.js';
import { type RetentionSettings, retentionSection } from './sections/retention.js';
import { type SecuritySettings, securitySection } from './sections/security.js';
import { type StorageSettings, storageSection } from './sections/storage.js';
import { type WebhookSettings, webhooksSection } from './sections/webhooks.js';

export { ConfigError } from './config-error.js';
export { installedYtDlpPath } from './sections/extractor.js';

export const ROLES = ['api', 'projector', 'worker', 'sweeper'] as const;
export type Role = (typeof ROLES)[number];

export type ServiceMode = 'embedded' | 'server';

/** Every setting the service reads from environment variables, by section; each adapter takes its own section. */
export interface Config {
  /** `embedded` when none of DATABASE_URL, EVENTSTORE_URL and NATS_URL is set: one process, no servers. */
  mode: ServiceMode;
  http: HttpSettings;
  storage: StorageSettings;
  queue: QueueSettings;
  jobs: JobSettings;
  extractor: ExtractorSettings;
  lookups: LookupSettings;
  platforms: PlatformSettings;
  webhooks: WebhookSettings;
  retention: RetentionSettings;
  rateLimits: RateLimitSection;
  security: SecuritySettings;
  accounts: AccountSettings;
  eventStreams: EventStreamSettings;
  observability: ObservabilitySettings;
}

type SectionName = Exclude<keyof Config, 'mode'>;

/** In the README's order. */
export const CONFIG_SECTIONS: { [Name in SectionName]: ConfigSection<Config[Name]> } = {
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
  eventStreams: eventStreamsSection,
  observability: observabilitySection,
};

export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const sections = Object.fromEntries(
    Object.entries(CONFIG_SECTIONS).map(([name, section]) => [name, section.load(read)]),
  ) as Omit<Config, 'mode'>;
  checkAckWaitCoversWebhookAttempt(sections.queue.workAckWaitMs, sections.webhooks.timeoutMs);
  const mode = ['DATABASE_URL', 'EVENTSTORE_URL', 'NATS_URL'].some((name) => read.optional(name) !== undefined)
    ? 'server'
    : 'embedded';
  return { mode, ...sections };
}

/** Time a webhook attempt needs besides its send: recording its start and its outcome. */
const WEBHOOK_ATTEMPT_GRACE_MS = 2_000;

/** A webhook attempt sends no heartbeat: an ack wait shorter than the attempt lets every slow attempt lapse and run again. */
function checkAckWaitCoversWebhookAttempt(ackWaitMs: number, webhookTimeoutMs: number): void {
  if (ackWaitMs < webhookTimeoutMs + WEBHOOK_ATTEMPT_GRACE_MS) {
    throw new ConfigError(
      'WORK_ACK_WAIT_MS',
      `(${ackWaitMs}) must be at least WEBHOOK_TIMEOUT_MS (${webhookTimeoutMs}) + ${WEBHOOK_ATTEMPT_GRACE_MS}, or a webhook attempt that waits out its timeout lapses and is sent again; raise WORK_ACK_WAIT_MS or lower WEBHOOK_TIMEOUT_MS`,
    );
  }
}
