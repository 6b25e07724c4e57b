import type { Readable } from 'node:stream';

export interface StoredFileInfo {
  key: string;
  size: number;
  /** When the stored file was last written, where the store knows it. */
  modifiedAt?: Date;
}

/** Where produced files live until they expire. Keys are relative, slash-separated names. */
export interface FileStore {
  /**
   * Moves (or copies) a finished local file into the store under `key`. An
   * aborted `signal` stops it, before or during the transfer, with nothing
   * left under the key, and rejects with the signal's reason.
   */
  put(key: string, localPath: string, options?: { signal?: AbortSignal }): Promise<StoredFileInfo>;
  stat(key: string): Promise<StoredFileInfo | null>;
  /** A stream of bytes [start, end] inclusive, or the whole file. */
  read(key: string, range?: { start: number; end: number }): Readable;
  remove(key: string): Promise<void>;
  /**
   * Removes every file whose key starts with `prefix` (such as every file a
   * job's attempts stored) but `except`, and returns the keys it removed.
   * A prefix ending in `/` takes everything under that folder; an empty one
   * is refused.
   */
  removeByPrefix(prefix: string, options?: { except?: string }): Promise<string[]>;
}
