import { accountFilesPrefix } from '../downloads/job-file-keys.js';
import type { FileStore } from '../ports/file-store.js';
import type { PersonalDataErasure } from '../ports/personal-data-erasure.js';
import type { AccountAdministration } from './account-administration.js';

export interface ErasureReport {
  accountId: string;
  filesDeleted: number;
}

/**
 * Closes the account and erases its personal data by destroying the key it was sealed with (crypto-shredding): the
 * events stay, and keep folding to the same amounts, while its name, email, URLs and titles read as erased. The steps
 * run in an order that a crash at any point leaves safe to run again; `AccountErased`, written last, says it is done.
 */
export class EraseAccount {
  constructor(
    private readonly administration: AccountAdministration,
    private readonly erasure: PersonalDataErasure,
    private readonly files: FileStore,
  ) {}

  async execute(accountId: string): Promise<ErasureReport> {
    await this.administration.close(accountId);
    await this.erasure.sealWrittenBefore(accountId);
    const deleted = await this.files.removeByPrefix(accountFilesPrefix(accountId));
    await this.erasure.destroyKey(accountId);
    await this.erasure.forgetReadModels(accountId);
    await this.administration.erase(accountId);
    return { accountId, filesDeleted: deleted.length };
  }
}
