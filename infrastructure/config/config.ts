import { group } from './compose-settings.js';
import { ConfigError } from './config-error.js';
import { CONFIG_SECTIONS } from './config-sections.js';
import { type Env, EnvReader } from './env-reader.js';
import { FeatureSettings } from './feature-settings.js';
import type { DeclaredSettings } from './setting.js';

export { ConfigError } from './config-error.js';
export { CONFIG_SECTIONS } from './config-sections.js';
export { installedYtDlpPath } from './sections/extractor.js';

export const ROLES = ['api', 'projector', 'worker', 'sweeper'] as const;
export type Role = (typeof ROLES)[number];

export type ServiceMode = 'embedded' | 'server';

/** Every setting the service reads from environment variables, by section; each adapter takes its own section. */
export interface Config extends DeclaredSettings<typeof CONFIG_SECTIONS> {
  /** `embedded` when none of DATABASE_URL, EVENTSTORE_URL and NATS_URL is set: one process, no servers. */
  mode: ServiceMode;
  /** The sections features declare themselves (`FeatureModule.config`). */
  features: FeatureSettings;
}

const ALL_SECTIONS = group(CONFIG_SECTIONS);

export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const sections = ALL_SECTIONS.read(read);
  checkAckWaitCoversWebhookAttempt(sections.queue.workAckWaitMs, sections.webhooks.timeoutMs);
  const mode = ['DATABASE_URL', 'EVENTSTORE_URL', 'NATS_URL'].some((name) => read.optional(name) !== undefined)
    ? 'server'
    : 'embedded';
  return { mode, ...sections, features: new FeatureSettings(read) };
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
