import type { FileStore } from '../../application/ports/file-store.js';
import type { StorageSettings } from '../config/sections/storage.js';
import { LocalDirectoryFileStore } from './local-directory-file-store.js';
import { S3FileStore } from './s3-file-store.js';

/** FILE_STORE selects where produced files live: a local directory (default) or an S3-compatible bucket. */
export function createFileStore(storage: StorageSettings): FileStore {
  const { objectStorage } = storage;
  if (objectStorage === null) return new LocalDirectoryFileStore(storage.filesDir);
  return new S3FileStore(objectStorage);
}
