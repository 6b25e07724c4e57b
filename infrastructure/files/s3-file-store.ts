import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { PassThrough, type Readable, pipeline } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FileStore, StoredFileInfo } from '../../application/ports/file-store.js';
import type { S3FileStoreOptions } from '../config/sections/storage.js';

export type { S3FileStoreOptions } from '../config/sections/storage.js';

/**
 * Files in an S3-compatible bucket. Uploads stream the local file in parts
 * (lib-storage's multipart upload, one part in flight), reads stream the
 * object or a byte range of it: no file is ever held in memory whole.
 * Credentials come from the SDK's usual sources (AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, a profile, an instance role).
 */
export class S3FileStore implements FileStore {
  private readonly client: S3Client;

  constructor(private readonly options: S3FileStoreOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      // Many S3-compatible servers reject the SDK's default trailing checksums; send them only where S3 requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, localPath: string, options: { signal?: AbortSignal } = {}): Promise<StoredFileInfo> {
    const { signal } = options;
    signal?.throwIfAborted();
    const { size } = await stat(localPath);
    const abortController = new AbortController();
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.options.bucket,
        Key: this.objectKey(key),
        Body: createReadStream(localPath),
        ContentLength: size,
      },
      partSize: this.options.partSizeBytes,
      queueSize: 1,
      leavePartsOnError: false,
      abortController,
    });
    // Aborting drops the parts sent so far: S3 keeps nothing of an aborted multipart upload.
    const abort = () => abortController.abort(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    if (signal?.aborted) abort();
    try {
      await upload.done();
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      throw error;
    } finally {
      signal?.removeEventListener('abort', abort);
    }
    if (signal?.aborted === true) {
      // Aborted as the last part landed: the object is whole, but its job will not use it.
      await this.remove(key).catch(() => undefined);
      throw signal.reason;
    }
    // Like a move into a local directory: the store now owns the bytes.
    await rm(localPath, { force: true });
    return { key, size };
  }

  async stat(key: string): Promise<StoredFileInfo | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }),
      );
      return {
        key,
        size: head.ContentLength ?? 0,
        ...(head.LastModified === undefined ? {} : { modifiedAt: head.LastModified }),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    const output = new PassThrough();
    this.client
      .send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: this.objectKey(key),
          Range: range === undefined ? undefined : `bytes=${range.start}-${range.end}`,
        }),
      )
      .then((response) => pipeline(response.Body as Readable, output, () => undefined))
      .catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
    return output;
  }

  async remove(key: string): Promise<void> {
    // Deleting a missing object succeeds in S3, so a repeated removal does nothing.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
  }

  async removeByPrefix(prefix: string, options: { except?: string } = {}): Promise<string[]> {
    const listed = this.objectPrefix(prefix);
    const removed: string[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: listed, ContinuationToken: continuationToken }),
      );
      const keys = (page.Contents ?? [])
        .flatMap(({ Key }) => (Key === undefined ? [] : [Key.slice(this.options.prefix.length)]))
        .filter((key) => key !== options.except);
      if (keys.length > 0) {
        // A page holds at most 1,000 keys, as many as one DeleteObjects takes.
        const result = await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.options.bucket,
            Delete: { Objects: keys.map((key) => ({ Key: this.options.prefix + key })), Quiet: true },
          }),
        );
        const failed = result.Errors ?? [];
        if (failed.length > 0)
          throw new Error(
            `Could not remove ${failed.length} objects under ${prefix}: ${failed[0].Code ?? ''} ${failed[0].Message ?? ''}`.trim(),
          );
        removed.push(...keys);
      }
      continuationToken = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);
    return removed;
  }

  private objectKey(key: string): string {
    if (key === '' || key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..'))
      throw new Error(`Invalid file key: ${key}`);
    return this.options.prefix + key;
  }

  /** Like a key, but its last segment may be partial or empty. */
  private objectPrefix(prefix: string): string {
    if (prefix === '') throw new Error('Refusing to remove every file in the store');
    const folders = prefix.split('/').slice(0, -1);
    if (folders.some((segment) => segment === '' || segment === '.' || segment === '..'))
      throw new Error(`Invalid file key prefix: ${prefix}`);
    return this.options.prefix + prefix;
  }
}

function isNotFound(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
}
