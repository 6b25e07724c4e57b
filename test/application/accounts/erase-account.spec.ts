import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { AccountAdministration } from '../../../application/accounts/account-administration.js';
import { EraseAccount } from '../../../application/accounts/erase-account.js';
import { CommandHandler } from '../../../application/command-handler.js';
import type { FileStore } from '../../../application/ports/file-store.js';
import type { PersonalDataErasure } from '../../../application/ports/personal-data-erasure.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import { loadPlanCatalog } from '../../../infrastructure/config/plan-catalog.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { ApiKeyCrypto } from '../../../infrastructure/security/api-key-crypto.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { SystemClock } from '../../../infrastructure/system/system-clock.js';

/** Records the steps in order, and fails the one named once, as a process dying there would. */
class RecordingErasure implements PersonalDataErasure, Pick<FileStore, 'removeByPrefix'> {
  readonly steps: string[] = [];
  constructor(private failAt: string | null = null) {}
  private step(name: string): void {
    if (this.failAt === name) {
      this.failAt = null;
      throw new Error(`died at ${name}`);
    }
    this.steps.push(name);
  }
  async sealWrittenBefore(accountId: string) {
    this.step(`seal ${accountId}`);
  }
  async destroyKey(accountId: string) {
    this.step(`destroy ${accountId}`);
  }
  async forgetReadModels(accountId: string) {
    this.step(`forget ${accountId}`);
  }
  async removeByPrefix(prefix: string) {
    this.step(`files ${prefix}`);
    return [`${prefix}job.1.m4a`];
  }
}

describe('application: erasing an account', () => {
  const store = new InMemoryEventStore();
  const administration = new AccountAdministration({
    accounts: new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, new RandomIds()),
    plans: loadPlanCatalog(undefined),
    secrets: new ApiKeyCrypto(randomBytes(32)),
    ids: new RandomIds(),
    clock: new SystemClock(),
  });
  const erase = (erasure: RecordingErasure) =>
    new EraseAccount(administration, erasure, erasure as unknown as FileStore);
  const open = async () =>
    (await administration.openAccount({ name: 'Ada', email: 'ada@example.com', planId: 'free', addOns: [] })).accountId;
  const accessOf = async (accountId: string) =>
    (await store.readStream(`account-${accountId}`))
      .map((event) => event.type)
      .filter((type) => type.startsWith('Account'));

  it('closes, seals what is plain, deletes the files, destroys the key, forgets the read models, then records it', async () => {
    const accountId = await open();
    const erasure = new RecordingErasure();
    assert.deepEqual(await erase(erasure).execute(accountId), { accountId, filesDeleted: 1 });
    assert.deepEqual(erasure.steps, [
      `seal ${accountId}`,
      `files ${accountId}/`,
      `destroy ${accountId}`,
      `forget ${accountId}`,
    ]);
    assert.deepEqual(await accessOf(accountId), ['AccountOpened', 'AccountClosed', 'AccountErased']);
  });

  it('finished by running it again after dying at any step, recorded once', async () => {
    for (const failAt of ['seal', 'files', 'destroy', 'forget']) {
      const accountId = await open();
      const at = failAt === 'files' ? `files ${accountId}/` : `${failAt} ${accountId}`;
      await assert.rejects(erase(new RecordingErasure(at)).execute(accountId), /died at/);
      assert.ok(!(await accessOf(accountId)).includes('AccountErased'), `not recorded after dying at ${failAt}`);
      const again = new RecordingErasure();
      await erase(again).execute(accountId);
      assert.equal(again.steps.length, 4);
      await erase(new RecordingErasure()).execute(accountId);
      assert.deepEqual(await accessOf(accountId), ['AccountOpened', 'AccountClosed', 'AccountErased'], failAt);
    }
  });

  it('refuses an unknown account before touching anything', async () => {
    const erasure = new RecordingErasure();
    await assert.rejects(erase(erasure).execute('no-such-account'), /Account not found/);
    assert.deepEqual(erasure.steps, []);
  });
});
