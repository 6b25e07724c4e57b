import { EraseAccount, type ErasureReport } from '../../application/accounts/erase-account.js';
import type { AccountAdministration } from '../../application/accounts/account-administration.js';
import type { Container } from '../composition/container.js';
import { TOKENS } from '../composition/tokens.js';
import { type SealReport, sealWrittenBefore } from '../event-store/sealing/seal-written-before.js';
import { rotateMasterKey } from '../security/personal-data/rotate-master-key.js';

/** `close --erase`: the same use case the admin API runs. */
export function eraseAccount(
  container: Container,
  admin: AccountAdministration,
  accountId: string,
): Promise<ErasureReport> {
  return new EraseAccount(
    admin,
    container.resolve(TOKENS.personalDataErasure),
    container.resolve(TOKENS.fileStore),
  ).execute(accountId);
}

/** `rotate-master-key`: every data key wrapped again under MASTER_KEY. */
export function rewrapDataKeys(container: Container): Promise<{ rewrapped: number }> {
  const { keyStore, masterKeys } = container.resolve(TOKENS.personalDataSealing);
  return rotateMasterKey(keyStore, masterKeys);
}

/** `seal-stored-events`: the one-off migration of events written before sealing began (PostgreSQL store only). */
export function sealStoredEvents(container: Container): Promise<SealReport> {
  const sealing = container.resolve(TOKENS.personalDataSealing);
  if (!sealing.eventsRewritable)
    throw new Error(
      'EventStoreDB events cannot be rewritten in place: see "Data protection" in the README for what they keep',
    );
  return sealWrittenBefore(container.resolve(TOKENS.database), sealing.keys);
}
