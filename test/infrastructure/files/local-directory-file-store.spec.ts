import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalDirectoryFileStore } from '../../../infrastructure/files/local-directory-file-store.js';
import { fileStoreContract } from './file-store-contract.js';

describe('local directory file store', () => {
  fileStoreContract(async () => new LocalDirectoryFileStore(await mkdtemp(path.join(tmpdir(), 'store-'))));
});
