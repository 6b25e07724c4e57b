import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { type FixturePlatform, serviceEnvFor } from '../../test/fixtures/platform/fixture-platform.js';
import { SOAK_MARKER_VARIABLE } from './leftover-processes.js';

/** What every process of the fleet (and the CLIs) runs with: short schedules, so a run of minutes sees whole deliveries and recoveries. */
export function soakEnvironment(options: {
  databaseUrl: string;
  natsUrl: string;
  /** How many NATS servers keep a copy of the work stream. */
  natsReplicas: number;
  runDir: string;
  platform: FixturePlatform;
}): Record<string, string> {
  return {
    ...serviceEnvFor(options.platform),
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl,
    NATS_URL: options.natsUrl,
    NATS_STREAM: 'VDS_SOAK',
    NATS_STREAM_REPLICAS: String(options.natsReplicas),
    // Inherited by every process under the fleet's, which is how the soak finds any left behind.
    [SOAK_MARKER_VARIABLE]: path.basename(options.runDir),
    MASTER_KEY: randomBytes(32).toString('hex'),
    DATA_DIR: path.join(options.runDir, 'data'),
    FILES_DIR: path.join(options.runDir, 'files'),
    WORK_DIR: path.join(options.runDir, 'work'),
    LOG_LEVEL: 'info',
    // Every submission looks its video up, on the API processes' warm helpers, which a fault kills.
    METADATA_CACHE_TTL_SECONDS: '0',
    // Clients poll every job each second; the request limits are not under test here.
    RATE_LIMIT_KEY_PER_SECOND: '0',
    RATE_LIMIT_ACCOUNT_PER_SECOND: '0',
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_SCHEDULE_MS: '500,1000,1000,1500,1500,2000,2000,2500,2500',
    WORK_ACK_WAIT_MS: '20000',
    DOWNLOAD_MAX_ATTEMPTS: '3',
    DOWNLOAD_RETRY_BASE_MS: '1000',
    PLATFORM_BOT_CHECK_BACKOFF_SECONDS: '8',
    RESERVATION_GRACE_MS: '30000',
    RECONCILE_INTERVAL_MS: '10000',
    SHUTDOWN_TIMEOUT_MS: '15000',
  };
}
