import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config-error.js';
import type { EnvReader } from '../env-reader.js';
import { type ConfigSection, choice, code, custom, integer, optional, text } from '../variable.js';

/** An S3-compatible bucket holding the produced files. */
export interface S3FileStoreOptions {
  bucket: string;
  /** Prepended to every key, e.g. `downloads/`. */
  prefix: string;
  /** An S3-compatible server's address; the SDK's AWS endpoint when absent. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Multipart part size: bounds the memory one upload takes (parts in flight × this). */
  partSizeBytes: number;
}

export interface StorageSettings {
  databaseUrl: string;
  databasePoolSize: number;
  /** Null: the PostgreSQL event store in DATABASE_URL. */
  eventStoreUrl: string | null;
  embeddedDataDir: string;
  filesDir: string;
  workDir: string;
  /** Null: files live in FILES_DIR. */
  objectStorage: S3FileStoreOptions | null;
}

/** The base of the other paths' defaults. */
export const DATA_DIR = text(
  'DATA_DIR',
  path.resolve('.data'),
  'base directory of the default paths below',
  code('.data'),
);
const dataDirPath =
  (...parts: string[]) =>
  (env: EnvReader) =>
    path.join(DATA_DIR.read(env), ...parts);

const DATABASE_URL = text(
  'DATABASE_URL',
  'postgres://postgres@127.0.0.1:5432/video_download',
  'read models, checkpoints, locks and the default event store; created if missing, its schemas migrated at every start under advisory locks, so processes may start together; setting it selects server mode',
  'unset (embedded mode); in server mode `postgres://postgres@127.0.0.1:5432/video_download`',
);
const DATABASE_POOL_SIZE = integer(
  'DATABASE_POOL_SIZE',
  10,
  [1, 200],
  "PostgreSQL connections per process and pool, opened as needed: read models and processors (knex), the PostgreSQL event store, and the API's hot reads (key lookup and job row, a pool of their own)",
);
const EVENTSTORE_URL = custom(
  'EVENTSTORE_URL',
  '`esdb://…` or `kurrentdb://…` selects EventStoreDB; setting it selects server mode',
  'unset',
  (env) => {
    const value = env.optional('EVENTSTORE_URL');
    if (value === undefined) return null;
    if (!/^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover):\/\//.test(value)) {
      throw new ConfigError(
        'EVENTSTORE_URL',
        'must be an esdb:// or kurrentdb:// URL, or unset for the PostgreSQL event store',
      );
    }
    return value;
  },
);
const EMBEDDED_DATA_DIR = text(
  'EMBEDDED_DATA_DIR',
  dataDirPath('embedded'),
  "embedded mode: the PGlite database (event store, read models, checkpoints, work queue), its owner lock and the admin endpoint's address and token",
  code('$DATA_DIR/embedded'),
);
const FILES_DIR = text(
  'FILES_DIR',
  dataDirPath('files'),
  'produced files (with `FILE_STORE=local`)',
  code('$DATA_DIR/files'),
);
const WORK_DIR = text(
  'WORK_DIR',
  path.join(tmpdir(), 'video-download-work'),
  'scratch space, a directory per download attempt',
  code('$TMPDIR/video-download-work'),
);
const FILE_STORE = choice(
  'FILE_STORE',
  ['local', 's3'],
  'local',
  "`s3` keeps produced files in an S3-compatible bucket instead of `FILES_DIR`. Fixes: files that must outlive one machine's disk, or be shared by workers on several machines",
);
const S3_BUCKET = optional('S3_BUCKET', 'the bucket (required with `FILE_STORE=s3`)');
const S3_PREFIX = text('S3_PREFIX', '', 'a prefix for every object key', 'empty');
const S3_ENDPOINT = custom(
  'S3_ENDPOINT',
  "an S3-compatible server (MinIO, Ceph, R2, …); credentials come from the AWS SDK's usual sources (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, a profile, an instance role)",
  'AWS',
  (env) => (env.optional('S3_ENDPOINT') === undefined ? undefined : env.url('S3_ENDPOINT', '')),
);
const S3_REGION = text('S3_REGION', 'us-east-1', "the bucket's region");
const S3_FORCE_PATH_STYLE = custom(
  'S3_FORCE_PATH_STYLE',
  '`true` puts the bucket in the path rather than the host name',
  '`true` with an endpoint, else `false`',
  (env) =>
    // S3-compatible servers mostly want the bucket in the path; AWS itself takes either.
    env.oneOf(
      'S3_FORCE_PATH_STYLE',
      ['true', 'false'],
      env.optional('S3_ENDPOINT') === undefined ? 'false' : 'true',
    ) === 'true',
);
const S3_PART_SIZE_MB = integer(
  'S3_PART_SIZE_MB',
  8,
  [5, 512],
  "multipart upload part size (5 to 512); one part is in flight per upload, so this bounds an upload's memory",
);

export const storageSection: ConfigSection<StorageSettings> = {
  title: 'Storage',
  variables: [
    DATA_DIR,
    DATABASE_URL,
    DATABASE_POOL_SIZE,
    EVENTSTORE_URL,
    EMBEDDED_DATA_DIR,
    FILES_DIR,
    WORK_DIR,
    FILE_STORE,
    S3_BUCKET,
    S3_PREFIX,
    S3_ENDPOINT,
    S3_REGION,
    S3_FORCE_PATH_STYLE,
    S3_PART_SIZE_MB,
  ],
  load: (env) => ({
    databaseUrl: DATABASE_URL.read(env),
    databasePoolSize: DATABASE_POOL_SIZE.read(env),
    eventStoreUrl: EVENTSTORE_URL.read(env),
    embeddedDataDir: EMBEDDED_DATA_DIR.read(env),
    filesDir: FILES_DIR.read(env),
    workDir: WORK_DIR.read(env),
    objectStorage: objectStorage(env),
  }),
};

/** The S3 variables are read only when FILE_STORE selects the bucket. */
function objectStorage(env: EnvReader): S3FileStoreOptions | null {
  if (FILE_STORE.read(env) === 'local') return null;
  const bucket = S3_BUCKET.read(env);
  if (bucket === undefined) throw new ConfigError('S3_BUCKET', 'is required when FILE_STORE is s3');
  return {
    bucket,
    prefix: S3_PREFIX.read(env),
    endpoint: S3_ENDPOINT.read(env),
    region: S3_REGION.read(env),
    forcePathStyle: S3_FORCE_PATH_STYLE.read(env),
    partSizeBytes: S3_PART_SIZE_MB.read(env) * 1024 * 1024,
  };
}
