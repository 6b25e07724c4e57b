import { tmpdir } from 'node:os';
import path from 'node:path';
import { derive, group, when } from '../compose-settings.js';
import type { EnvReader } from '../env-reader.js';
import { InvalidValue } from '../invalid-value.js';
import { httpUrl, oneOf } from '../parsers.js';
import { section } from '../section.js';
import type { SettingValue } from '../setting.js';
import { choice, code, integer, required, text, variable } from '../variable.js';

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

const S3_ENDPOINT = variable<string | undefined>({
  name: 'S3_ENDPOINT',
  doc: "an S3-compatible server (MinIO, Ceph, R2, …); credentials come from the AWS SDK's usual sources (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, a profile, an instance role)",
  shownDefault: 'AWS',
  fallback: () => undefined,
  parse: httpUrl,
});

/** An S3-compatible bucket holding the produced files. */
const objectStorage = group({
  bucket: required('S3_BUCKET', 'is required when FILE_STORE is s3', 'the bucket (required with `FILE_STORE=s3`)'),
  /** Prepended to every key, e.g. `downloads/`. */
  prefix: text('S3_PREFIX', '', 'a prefix for every object key', 'empty'),
  /** An S3-compatible server's address; the SDK's AWS endpoint when absent. */
  endpoint: S3_ENDPOINT,
  region: text('S3_REGION', 'us-east-1', "the bucket's region"),
  forcePathStyle: variable({
    name: 'S3_FORCE_PATH_STYLE',
    doc: '`true` puts the bucket in the path rather than the host name',
    shownDefault: '`true` with an endpoint, else `false`',
    // S3-compatible servers mostly want the bucket in the path; AWS itself takes either.
    fallback: (env) => env.optional(S3_ENDPOINT.name) !== undefined,
    parse: (raw) => oneOf(['true', 'false'])(raw) === 'true',
  }),
  /** Multipart part size: bounds the memory one upload takes (parts in flight × this). */
  partSizeBytes: derive(
    integer(
      'S3_PART_SIZE_MB',
      8,
      [5, 512],
      "multipart upload part size (5 to 512); one part is in flight per upload, so this bounds an upload's memory",
    ),
    (megabytes) => megabytes * 1024 * 1024,
  ),
});

export const storageSection = section('Storage', {
  dataDir: DATA_DIR,
  databaseUrl: text(
    'DATABASE_URL',
    'postgres://postgres@127.0.0.1:5432/video_download',
    'read models, checkpoints, locks and the default event store; created if missing, its schemas migrated at every start under advisory locks, so processes may start together; setting it selects server mode',
    'unset (embedded mode); in server mode `postgres://postgres@127.0.0.1:5432/video_download`',
  ),
  databasePoolSize: integer(
    'DATABASE_POOL_SIZE',
    10,
    [1, 200],
    "PostgreSQL connections per process and pool, opened as needed: read models and processors (knex), the PostgreSQL event store, and the API's hot reads (key lookup and job row, a pool of their own)",
  ),
  /** Null: the PostgreSQL event store in DATABASE_URL. */
  eventStoreUrl: variable<string | null>({
    name: 'EVENTSTORE_URL',
    doc: '`esdb://…` or `kurrentdb://…` selects EventStoreDB; setting it selects server mode',
    shownDefault: 'unset',
    fallback: () => null,
    parse: (raw) => {
      if (!/^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover):\/\//.test(raw))
        throw new InvalidValue('must be an esdb:// or kurrentdb:// URL, or unset for the PostgreSQL event store');
      return raw;
    },
  }),
  embeddedDataDir: text(
    'EMBEDDED_DATA_DIR',
    dataDirPath('embedded'),
    "embedded mode: the PGlite database (event store, read models, checkpoints, work queue), its owner lock and the admin endpoint's address and token",
    code('$DATA_DIR/embedded'),
  ),
  /** Null: a new embedded database is created by initdb. */
  embeddedTemplateDir: variable<string | null>({
    name: 'EMBEDDED_TEMPLATE_DIR',
    doc: 'embedded mode: a directory holding a newly created database (made there the first time it is used), copied at the first start instead of running initdb, which costs seconds of CPU; for hosts that create many embedded services (tests, one per customer)',
    shownDefault: 'unset',
    fallback: () => null,
    parse: (raw) => raw,
  }),
  filesDir: text(
    'FILES_DIR',
    dataDirPath('files'),
    'produced files (with `FILE_STORE=local`)',
    code('$DATA_DIR/files'),
  ),
  workDir: text(
    'WORK_DIR',
    path.join(tmpdir(), 'video-download-work'),
    'scratch space, a directory per download attempt',
    code('$TMPDIR/video-download-work'),
  ),
  /** Null: files live in FILES_DIR. The S3 variables are read only when FILE_STORE selects the bucket. */
  objectStorage: when(
    choice(
      'FILE_STORE',
      ['local', 's3'],
      'local',
      "`s3` keeps produced files in an S3-compatible bucket instead of `FILES_DIR`. Fixes: files that must outlive one machine's disk, or be shared by workers on several machines",
    ),
    's3',
    objectStorage,
  ),
});

export type StorageSettings = SettingValue<typeof storageSection>;
export type S3FileStoreOptions = NonNullable<StorageSettings['objectStorage']>;
