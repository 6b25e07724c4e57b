import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { S3FileStore } from '../../../infrastructure/files/s3-file-store.js';
import { fileStoreContract } from './file-store-contract.js';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
// s3rver ships no type declarations.
const S3rver = require('s3rver') as new (options: object) => S3rverInstance;

describe('S3 file store, against a local S3-compatible server (s3rver)', function () {
  this.timeout(60_000);
  let server: S3rverInstance;
  let directory: string;
  let endpoint: string;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  before(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: 'files' }],
    });
    const address = await server.run();
    endpoint = `http://127.0.0.1:${address.port}`;
    // s3rver's fixed credentials.
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  });
  after(async () => {
    await server?.close();
    await rm(directory, { recursive: true, force: true });
    restore('AWS_ACCESS_KEY_ID', saved.id);
    restore('AWS_SECRET_ACCESS_KEY', saved.secret);
  });

  fileStoreContract(
    async () =>
      new S3FileStore({
        bucket: 'files',
        prefix: `run-${randomBytes(4).toString('hex')}/`,
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        partSizeBytes: 5 * 1024 * 1024,
      }),
  );
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
