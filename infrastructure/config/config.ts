import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_CLIENT_DOWNLOAD_HOSTS } from '../../domain/client-download-url.js';
import type { RateLimitSettings } from '../../application/rate-limits/check-request-rate.js';
import type { PlatformAccessSettings } from '../extractor/platform-access.js';
import type { S3FileStoreOptions } from '../files/s3-file-store.js';

export const ROLES = ['api', 'projector', 'worker', 'sweeper'] as const;
export type Role = (typeof ROLES)[number];

/** Every setting the service reads, from environment variables; see the README for each. */
export interface Config {
  host: string;
  port: number;
  publicBaseUrl: string;
  legacyApiPrefixes: string[];
  bodyLimitBytes: number;
  databaseUrl: string;
  databasePoolSize: number;
  eventStoreUrl: string | null;
  natsUrl: string;
  natsStreamName: string;
  masterKey: string | null;
  masterKeyFile: string;
  planCatalogFile: string | undefined;
  videoHosts: string[];
  shortHosts: string[];
  videoUrlSchemes: string[];
  webhookAllowHosts: string[];
  /** Targets (`host` or `host:port`) yt-dlp and ffmpeg may reach whatever address they resolve to (see infrastructure/egress). */
  egressAllow: string[];
  ytDlpPath: string;
  ffmpegPath: string;
  ffprobePath: string;
  ytDlpPythonPath: string | undefined;
  extractorTimeoutSeconds: number;
  filesDir: string;
  workDir: string;
  downloadLinkTtlSeconds: number;
  workerConcurrency: number;
  downloadMaxAttempts: number;
  downloadRetryBaseMs: number;
  workAckWaitMs: number;
  metadataCacheTtlSeconds: number;
  /** A command that folds this many account events stores the state it reached; 0 folds every account from its first event. */
  accountSnapshotAfterEvents: number;
  extractorConcurrency: number;
  reservationGraceMs: number;
  logLevel: string;
  shutdownTimeoutMs: number;
  lookupQueuePerAccount: number;
  lookupQueueMax: number;
  /** Channel listings under way at once per account, and across accounts, per API process. */
  channelListingsPerAccount: number;
  /** Open event streams (GET /download/{jobId}/events) per API key and per API process, and the heartbeat between comments. */
  eventStreamsPerKey: number;
  eventStreamsMax: number;
  eventStreamHeartbeatMs: number;
  channelListingsMax: number;
  httpRequestTimeoutMs: number;
  httpHeadersTimeoutMs: number;
  /** `embedded` when none of DATABASE_URL, EVENTSTORE_URL and NATS_URL is set: one process, no servers. */
  mode: ServiceMode;
  embeddedDataDir: string;
  /** A reservation (and its job) still pending after this long is brought to an end by the reconciler. */
  pendingDownloadLimitMs: number;
  /** The same for info, client-download and channel-listing reservations. */
  pendingLookupLimitMs: number;
  reconcileIntervalMs: number;
  /** /readyz answers 503 while a projection or the relay lags more than this. */
  readyMaxLagMs: number;
  /** How long an answer waits for the accounts read model to show what it charged or released (read-your-writes for /me). */
  readYourWritesWaitMs: number;
  webhookTimeoutMs: number;
  /** The nine waits between the ten attempts. */
  webhookRetryScheduleMs: number[];
  webhookConcurrency: number;
  /** Webhook attempts of one account sent or waiting at once per worker process. */
  webhookConcurrencyPerAccount: number;
  infoJobTtlSeconds: number;
  clientDownloadJobTtlSeconds: number;
  channelListingTimeoutSeconds: number;
  photoSharingHosts: string[];
  shortVideoHosts: string[];
  shortVideoShortHosts: string[];
  socialNetworkHosts: string[];
  socialNetworkShortHosts: string[];
  apiKeyCacheTtlSeconds: number;
  requestLogSamplePercent: number;
  warmExtractorProcesses: number;
  /** yt-dlp processes each worker process keeps started ahead of its downloads; 0 spawns yt-dlp for each. */
  ytDlpSpareProcesses: number;
  extractedInfoTtlSeconds: number;
  /** Seconds a produced file is kept after completion; 0 keeps files for ever. */
  fileRetentionSeconds: number;
  fileSweepIntervalSeconds: number;
  rateLimits: RateLimitSettings;
  /** Share of a bucket's limit an API instance takes from the shared counters at once (server mode); 0 counts each request there. */
  rateLimitLeasePercent: number;
  /** Null: files live in FILES_DIR. */
  objectStorage: S3FileStoreOptions | null;
  ytDlpUpdate: 'off' | 'stable' | 'nightly';
  ytDlpUpdateIntervalHours: number;
  platformAccess: PlatformAccessSettings;
  /** Each passed as `--extractor-args` (PO-token providers, player clients). */
  ytDlpExtractorArgs: string[];
}

export type ServiceMode = 'embedded' | 'server';

export class ConfigError extends Error {
  constructor(name: string, problem: string) {
    super(`Invalid configuration: ${name} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const dataDir = read.string('DATA_DIR', path.resolve('.data'));
  const port = read.integer('PORT', 8080, 0, 65535);
  return {
    host: read.string('HOST', '0.0.0.0'),
    port,
    publicBaseUrl: read.url('PUBLIC_BASE_URL', `http://localhost:${port}`).replace(/\/$/, ''),
    legacyApiPrefixes: read.list('LEGACY_API_PREFIXES', ['/api/v1', '/v2']).map((prefix) => {
      if (!/^\/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$/.test(prefix)) throw new ConfigError('LEGACY_API_PREFIXES', `has an invalid path prefix: ${prefix}`);
      return prefix;
    }),
    bodyLimitBytes: read.integer('BODY_LIMIT_BYTES', 64 * 1024, 1024, 10 * 1024 * 1024),
    databaseUrl: read.string('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/video_download'),
    databasePoolSize: read.integer('DATABASE_POOL_SIZE', 10, 1, 200),
    eventStoreUrl: read.eventStoreUrl('EVENTSTORE_URL'),
    natsUrl: read.string('NATS_URL', 'nats://127.0.0.1:4222'),
    natsStreamName: read.string('NATS_STREAM', 'VDS_WORK'),
    masterKey: read.optional('MASTER_KEY') ?? null,
    masterKeyFile: read.string('MASTER_KEY_FILE', path.join(dataDir, 'master.key')),
    planCatalogFile: read.optional('PLAN_CATALOG_FILE'),
    videoHosts: read.list('VIDEO_HOSTS', ['www.youtube.com', 'youtube.com', 'm.youtube.com', 'music.youtube.com']),
    shortHosts: read.list('SHORT_HOSTS', ['youtu.be']),
    videoUrlSchemes: read.list('VIDEO_URL_SCHEMES', ['https']),
    webhookAllowHosts: read.list('WEBHOOK_ALLOW_HOSTS', []),
    egressAllow: read.list('EGRESS_ALLOW', []),
    // Where npm run setup puts the newest yt-dlp it could reach; Debian's otherwise.
    ytDlpPath: read.string('YT_DLP_PATH', installedYtDlpPath(dataDir)),
    ffmpegPath: read.string('FFMPEG_PATH', '/usr/bin/ffmpeg'),
    ffprobePath: read.string('FFPROBE_PATH', '/usr/bin/ffprobe'),
    ytDlpPythonPath: read.optional('YT_DLP_PYTHONPATH'),
    extractorTimeoutSeconds: read.integer('EXTRACTOR_SOCKET_TIMEOUT_SECONDS', 20, 1, 600),
    filesDir: read.string('FILES_DIR', path.join(dataDir, 'files')),
    workDir: read.string('WORK_DIR', path.join(tmpdir(), 'video-download-work')),
    downloadLinkTtlSeconds: read.integer('DOWNLOAD_LINK_TTL_SECONDS', 6 * 3600, 60, 30 * 24 * 3600),
    workerConcurrency: read.integer('WORKER_CONCURRENCY', 2, 1, 64),
    downloadMaxAttempts: read.integer('DOWNLOAD_MAX_ATTEMPTS', 3, 1, 20),
    downloadRetryBaseMs: read.integer('DOWNLOAD_RETRY_BASE_MS', 15_000, 0, 3_600_000),
    workAckWaitMs: workAckWait(read),
    metadataCacheTtlSeconds: read.integer('METADATA_CACHE_TTL_SECONDS', 600, 0, 86_400),
    accountSnapshotAfterEvents: read.integer('ACCOUNT_SNAPSHOT_AFTER_EVENTS', 100, 0, 1_000_000),
    extractorConcurrency: read.integer('EXTRACTOR_CONCURRENCY', 4, 1, 64),
    reservationGraceMs: read.integer('RESERVATION_GRACE_MS', 120_000, 1_000, 86_400_000),
    logLevel: read.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 20_000, 0, 600_000),
    lookupQueuePerAccount: read.integer('LOOKUP_QUEUE_PER_ACCOUNT', 8, 1, 1_000),
    lookupQueueMax: read.integer('LOOKUP_QUEUE_MAX', 64, 0, 100_000),
    channelListingsPerAccount: read.integer('CHANNEL_LISTINGS_PER_ACCOUNT', 2, 1, 1_000),
    eventStreamsPerKey: read.integer('EVENT_STREAMS_PER_KEY', 20, 1, 100_000),
    eventStreamsMax: read.integer('EVENT_STREAMS_MAX', 2_000, 1, 100_000),
    eventStreamHeartbeatMs: read.integer('EVENT_STREAM_HEARTBEAT_MS', 15_000, 100, 600_000),
    channelListingsMax: read.integer('CHANNEL_LISTINGS_MAX', 4, 1, 1_000),
    ...httpTimeouts(read),
    mode: ['DATABASE_URL', 'EVENTSTORE_URL', 'NATS_URL'].some((name) => read.optional(name) !== undefined) ? 'server' : 'embedded',
    embeddedDataDir: read.string('EMBEDDED_DATA_DIR', path.join(dataDir, 'embedded')),
    pendingDownloadLimitMs: read.integer('PENDING_DOWNLOAD_LIMIT_MS', 6 * 3_600_000, 5_000, 30 * 86_400_000),
    pendingLookupLimitMs: read.integer('PENDING_LOOKUP_LIMIT_MS', 3_600_000, 5_000, 30 * 86_400_000),
    reconcileIntervalMs: read.integer('RECONCILE_INTERVAL_MS', 60_000, 100, 86_400_000),
    readyMaxLagMs: read.integer('READY_MAX_LAG_MS', 60_000, 100, 86_400_000),
    readYourWritesWaitMs: read.integer('READ_YOUR_WRITES_WAIT_MS', 500, 0, 60_000),
    webhookTimeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 15_000, 100, 60_000),
    webhookRetryScheduleMs: webhookRetrySchedule(read.list('WEBHOOK_RETRY_SCHEDULE_MS', DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS)),
    webhookConcurrency: read.integer('WEBHOOK_CONCURRENCY', 8, 1, 256),
    webhookConcurrencyPerAccount: read.integer('WEBHOOK_CONCURRENCY_PER_ACCOUNT', 2, 1, 256),
    infoJobTtlSeconds: read.integer('INFO_JOB_TTL_SECONDS', 3600, 1, 30 * 86_400),
    clientDownloadJobTtlSeconds: read.integer('CLIENT_DOWNLOAD_JOB_TTL_SECONDS', 3600, 1, 30 * 86_400),
    channelListingTimeoutSeconds: read.integer('CHANNEL_LISTING_TIMEOUT_SECONDS', 300, 1, 3600),
    photoSharingHosts: read.list('PHOTO_SHARING_HOSTS', [...DEFAULT_CLIENT_DOWNLOAD_HOSTS.photoSharing.hosts]),
    shortVideoHosts: read.list('SHORT_VIDEO_HOSTS', [...DEFAULT_CLIENT_DOWNLOAD_HOSTS.shortVideo.hosts]),
    shortVideoShortHosts: read.list('SHORT_VIDEO_SHORT_HOSTS', [...DEFAULT_CLIENT_DOWNLOAD_HOSTS.shortVideo.shortHosts]),
    socialNetworkHosts: read.list('SOCIAL_NETWORK_HOSTS', [...DEFAULT_CLIENT_DOWNLOAD_HOSTS.socialNetwork.hosts]),
    socialNetworkShortHosts: read.list('SOCIAL_NETWORK_SHORT_HOSTS', [...DEFAULT_CLIENT_DOWNLOAD_HOSTS.socialNetwork.shortHosts]),
    apiKeyCacheTtlSeconds: read.integer('API_KEY_CACHE_TTL_SECONDS', 10, 0, 3_600),
    requestLogSamplePercent: read.integer('REQUEST_LOG_SAMPLE_PERCENT', 1, 0, 100),
    warmExtractorProcesses: read.integer('WARM_EXTRACTOR_PROCESSES', 2, 0, 32),
    ytDlpSpareProcesses: read.integer('YT_DLP_SPARE_PROCESSES', 1, 0, 32),
    extractedInfoTtlSeconds: read.integer('EXTRACTED_INFO_TTL_SECONDS', 300, 0, 3_600),
    ...fileRetention(read),
    rateLimits: rateLimits(read),
    rateLimitLeasePercent: read.integer('RATE_LIMIT_LEASE_PERCENT', 10, 0, 50),
    objectStorage: objectStorage(read),
    ytDlpUpdate: read.oneOf('YT_DLP_UPDATE', ['off', 'stable', 'nightly'], 'off'),
    ytDlpUpdateIntervalHours: read.integer('YT_DLP_UPDATE_INTERVAL_HOURS', 24, 1, 24 * 30),
    platformAccess: platformAccess(read),
    ytDlpExtractorArgs: (read.optional('YT_DLP_EXTRACTOR_ARGS') ?? '').split(/\s+/).filter((entry) => entry !== ''),
  };
}

/** Node refuses a headers timeout longer than the whole request's. */
function httpTimeouts(read: EnvReader): { httpRequestTimeoutMs: number; httpHeadersTimeoutMs: number } {
  const httpRequestTimeoutMs = read.integer('HTTP_REQUEST_TIMEOUT_MS', 30_000, 1_000, 3_600_000);
  const httpHeadersTimeoutMs = read.integer('HTTP_HEADERS_TIMEOUT_MS', 10_000, 500, 3_600_000);
  if (httpHeadersTimeoutMs > httpRequestTimeoutMs) throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', `must not exceed HTTP_REQUEST_TIMEOUT_MS (${httpRequestTimeoutMs})`);
  return { httpRequestTimeoutMs, httpHeadersTimeoutMs };
}

/** YT_DLP_COOKIES_FILE and YT_DLP_PROXY are the `*` entries when the per-platform lists name none. */
function platformAccess(read: EnvReader): PlatformAccessSettings {
  const cookies = read.perPlatform('YT_DLP_COOKIES_FILES', (value) => value.split('|'));
  const single = read.optional('YT_DLP_COOKIES_FILE');
  if (single !== undefined) cookies['*'] ??= [single];
  const proxies = read.perPlatform('YT_DLP_PROXIES', (value) => value.split('|'));
  const proxy = read.optional('YT_DLP_PROXY');
  if (proxy !== undefined) proxies['*'] ??= [proxy];
  const count = (name: string, max: number) => (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) > max) throw new ConfigError(name, `must give whole numbers up to ${max}, got "${value}"`);
    return Number(value);
  };
  return {
    cookies,
    proxies,
    proxyCooldownMs: read.integer('YT_DLP_PROXY_COOLDOWN_SECONDS', 900, 0, 86_400) * 1000,
    concurrency: read.perPlatform('PLATFORM_CONCURRENCY', count('PLATFORM_CONCURRENCY', 1000)),
    spacingMs: read.perPlatform('PLATFORM_REQUEST_SPACING_MS', count('PLATFORM_REQUEST_SPACING_MS', 3_600_000)),
    botCheckBackoffMs: read.integer('PLATFORM_BOT_CHECK_BACKOFF_SECONDS', 600, 0, 86_400) * 1000,
  };
}

function objectStorage(read: EnvReader): S3FileStoreOptions | null {
  if (read.oneOf('FILE_STORE', ['local', 's3'], 'local') === 'local') return null;
  const bucket = read.optional('S3_BUCKET');
  if (bucket === undefined) throw new ConfigError('S3_BUCKET', 'is required when FILE_STORE is s3');
  const endpoint = read.optional('S3_ENDPOINT') === undefined ? undefined : read.url('S3_ENDPOINT', '');
  return {
    bucket,
    prefix: read.string('S3_PREFIX', ''),
    endpoint,
    region: read.string('S3_REGION', 'us-east-1'),
    // S3-compatible servers mostly want the bucket in the path; AWS itself takes either.
    forcePathStyle: read.oneOf('S3_FORCE_PATH_STYLE', ['true', 'false'], endpoint === undefined ? 'false' : 'true') === 'true',
    partSizeBytes: read.integer('S3_PART_SIZE_MB', 8, 5, 512) * 1024 * 1024,
  };
}

/** `RATE_LIMITS_BY_PLAN=free=2/4,scale=50/100`: per plan, requests per second per key / per account (0 = unlimited). */
function rateLimits(read: EnvReader): RateLimitSettings {
  const defaults = { perKey: read.integer('RATE_LIMIT_KEY_PER_SECOND', 10, 0, 100_000), perAccount: read.integer('RATE_LIMIT_ACCOUNT_PER_SECOND', 20, 0, 100_000) };
  const byPlan: Record<string, { perKey: number; perAccount: number }> = {};
  for (const entry of read.list('RATE_LIMITS_BY_PLAN', [])) {
    const match = /^([a-z0-9_-]+)=(\d{1,6})\/(\d{1,6})$/i.exec(entry);
    if (match === null) throw new ConfigError('RATE_LIMITS_BY_PLAN', `must list plan=perKey/perAccount entries, got "${entry}"`);
    byPlan[match[1]] = { perKey: Number(match[2]), perAccount: Number(match[3]) };
  }
  return { defaults, byPlan };
}

/** Time a webhook attempt needs besides its send: recording its start and its outcome. */
const WEBHOOK_ATTEMPT_GRACE_MS = 2_000;

/** A webhook attempt sends no heartbeat: an ack wait shorter than the attempt lets every slow attempt lapse and run again. */
function workAckWait(read: EnvReader): number {
  const ackWaitMs = read.integer('WORK_ACK_WAIT_MS', 60_000, 1_000, 3_600_000);
  const webhookTimeoutMs = read.integer('WEBHOOK_TIMEOUT_MS', 15_000, 100, 60_000);
  if (ackWaitMs < webhookTimeoutMs + WEBHOOK_ATTEMPT_GRACE_MS) {
    throw new ConfigError(
      'WORK_ACK_WAIT_MS',
      `(${ackWaitMs}) must be at least WEBHOOK_TIMEOUT_MS (${webhookTimeoutMs}) + ${WEBHOOK_ATTEMPT_GRACE_MS}, or a webhook attempt that waits out its timeout lapses and is sent again; raise WORK_ACK_WAIT_MS or lower WEBHOOK_TIMEOUT_MS`,
    );
  }
  return ackWaitMs;
}

/** A link issued at completion must stay good: retention shorter than the link lifetime needs the operator's word. */
function fileRetention(read: EnvReader): Pick<Config, 'fileRetentionSeconds' | 'fileSweepIntervalSeconds'> {
  const fileRetentionSeconds = read.integer('FILE_RETENTION_SECONDS', 24 * 3600, 0, 10 * 365 * 24 * 3600);
  const linkTtlSeconds = read.integer('DOWNLOAD_LINK_TTL_SECONDS', 6 * 3600, 60, 30 * 24 * 3600);
  const shorterAllowed = read.oneOf('FILE_RETENTION_BELOW_LINK_TTL', ['refuse', 'allow'], 'refuse') === 'allow';
  if (fileRetentionSeconds > 0 && fileRetentionSeconds < linkTtlSeconds && !shorterAllowed) {
    throw new ConfigError(
      'FILE_RETENTION_SECONDS',
      `(${fileRetentionSeconds}) is shorter than DOWNLOAD_LINK_TTL_SECONDS (${linkTtlSeconds}), so links would outlive their files; raise it or set FILE_RETENTION_BELOW_LINK_TTL=allow`,
    );
  }
  return { fileRetentionSeconds, fileSweepIntervalSeconds: read.integer('FILE_SWEEP_INTERVAL_SECONDS', 60, 1, 86_400) };
}

class EnvReader {
  constructor(private readonly env: Env) {}

  optional(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  string(name: string, fallback: string): string {
    return this.optional(name) ?? fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!/^-?\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
    return value;
  }

  list(name: string, fallback: string[]): string[] {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    return raw.split(',').map((item) => item.trim()).filter((item) => item !== '');
  }

  url(name: string, fallback: string): string {
    const value = this.string(name, fallback);
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(name, `must be an absolute http(s) URL, got "${value}"`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(name, `must be an http(s) URL, got "${value}"`);
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.optional(name) ?? fallback;
    if (!(allowed as readonly string[]).includes(value)) throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${value}"`);
    return value as T;
  }

  /** `youtube.com=a|b,*=c`: a value per platform host, `*` for every platform. */
  perPlatform<T>(name: string, parse: (value: string) => T): Record<string, T> {
    const result: Record<string, T> = {};
    for (const entry of this.list(name, [])) {
      const separator = entry.indexOf('=');
      if (separator <= 0 || separator === entry.length - 1) throw new ConfigError(name, `must list platform=value entries (platform * for all), got "${entry}"`);
      result[entry.slice(0, separator).toLowerCase()] = parse(entry.slice(separator + 1));
    }
    return result;
  }

  /** Only EventStoreDB URLs select that store; empty means the PostgreSQL store in DATABASE_URL. */
  eventStoreUrl(name: string): string | null {
    const value = this.optional(name);
    if (value === undefined) return null;
    if (!/^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover):\/\//.test(value)) {
      throw new ConfigError(name, 'must be an esdb:// or kurrentdb:// URL, or unset for the PostgreSQL event store');
    }
    return value;
  }
}

/** The spec's waits between webhook attempts: 30 s, 1, 2, 4, 8, 16, 32, 64 and 128 min. */
const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS = ['30000', '60000', '120000', '240000', '480000', '960000', '1920000', '3840000', '7680000'];

function webhookRetrySchedule(items: string[]): number[] {
  if (items.length !== 9 || !items.every((item) => /^\d{1,9}$/.test(item))) {
    throw new ConfigError('WEBHOOK_RETRY_SCHEDULE_MS', `must list nine delays in milliseconds (ten attempts), comma-separated, got "${items.join(',')}"`);
  }
  return items.map(Number);
}

/** Where setup put the newest yt-dlp it could reach (`.data/bin/yt-dlp`), else Debian's package. */
export function installedYtDlpPath(dataDir = path.resolve('.data')): string {
  const installed = path.join(dataDir, 'bin', 'yt-dlp');
  return existsSync(installed) ? installed : '/usr/bin/yt-dlp';
}
