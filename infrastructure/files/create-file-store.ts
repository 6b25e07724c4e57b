import type { FileStore } from '../../application/ports/file-store.js';
import type { StorageSettings } from '../config/sections/storage.js';
import { LocalDirectoryFileStore } from './local-directory-file-store.js';

/**
 * FILE_STORE selects where produced files live: a local directory (default) or an S3-compatible bucket. The S3 SDK
 * (megabytes of modules) loads only for the bucket.
 */
export async function createFileStore(storage: StorageSettings): Promise<FileStore> {
  const { objectStorage } = storage;
  if (objectStorage === null) return new LocalDirectoryFileStore(storage.filesDir);
  const { S3FileStore } = await import('./s3-file-store.js');
  return new S3FileStore(objectStorage);
}
