import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FileStore } from '../../application/ports/file-store.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { S3FileStore } from '../../infrastructure/files/s3-file-store.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
// s3rver ships no type declarations.
const S3rver = require('s3rver') as new (options: object) => S3rverInstance;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('end to end: files in an S3-compatible bucket, served by the service and deleted by the sweeper role', function () {
  this.timeout(120_000);
  let s3: S3rverInstance;
  let s3Directory: string;
  let platform: FixturePlatform;
  let service: TestService;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  before(async () => {
    s3Directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: s3Directory,
      configureBuckets: [{ name: 'downloads' }],
    });
    const { port } = await s3.run();
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    platform = await startFixturePlatform();
    service = await startTestService({
      label: 's3',
      roles: ['api', 'projector', 'worker', 'sweeper'],
      env: {
        ...serviceEnvFor(platform),
        FILE_STORE: 's3',
        S3_BUCKET: 'downloads',
        S3_PREFIX: 'files/',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        FILE_RETENTION_SECONDS: '4',
        FILE_RETENTION_BELOW_LINK_TTL: 'allow',
        FILE_SWEEP_INTERVAL_SECONDS: '1',
      },
    });
  });
  after(async () => {
    await service?.stop();
    await platform?.stop();
    await s3?.close();
    if (s3Directory !== undefined) await rm(s3Directory, { recursive: true, force: true });
    for (const [name, value] of [
      ['AWS_ACCESS_KEY_ID', saved.id],
      ['AWS_SECRET_ACCESS_KEY', saved.secret],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('stores the produced file in the bucket, serves it (with ranges) through the signed link, then deletes it', async () => {
    const call = apiClient(service.url);
    const { apiKey } = await service.createAccount();
    const { jobId } = (
      await call('POST', '/api/v2/download', {
        key: apiKey,
        json: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio' },
      })
    ).body;
    let done: any;
    for (const deadline = Date.now() + 60_000; ; await sleep(150)) {
      done = (await call('GET', `/api/v2/download/${jobId}`, { key: apiKey })).body;
      if (done.status === 'COMPLETED' || done.status === 'FAILED') break;
      assert.ok(Date.now() < deadline, `job still ${done.status}`);
    }
    assert.equal(done.status, 'COMPLETED');
    const files = service.service.container.resolve<FileStore>(TOKENS.fileStore);
    assert.ok(files instanceof S3FileStore);

    const whole = await fetch(done.downloadUrl);
    assert.equal(whole.status, 200);
    assert.equal((await whole.arrayBuffer()).byteLength, done.fileSize);
    const part = await fetch(done.downloadUrl, { headers: { Range: 'bytes=0-9' } });
    assert.equal(part.status, 206);
    assert.equal((await part.arrayBuffer()).byteLength, 10);

    await service.settle();
    const row = await service.service.container
      .resolve<import('knex').Knex>(TOKENS.database)('download_jobs')
      .where('job_id', jobId)
      .first();
    for (const deadline = Date.now() + 30_000; (await files.stat(row.file_key)) !== null; await sleep(250))
      assert.ok(Date.now() < deadline, 'the sweeper never deleted the object');
    const gone = await fetch(done.downloadUrl);
    await gone.arrayBuffer();
    assert.equal(gone.status, 410, 'the link answers 410 once the object is gone');
  });
});
