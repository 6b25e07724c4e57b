import { randomUUID } from 'node:crypto';
import { CommandHandler } from '../../../application/command-handler.js';
import type { EventStore } from '../../../application/ports/event-store.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import type { AddOnId, PlanId } from '../../../domain/account/plan.js';
import { DEFAULT_PLAN_CATALOG } from '../../../infrastructure/config/plan-catalog.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';

/** An API key as the account stream records it: its hash and its encryption, never the key. */
export interface GivenApiKey {
  keyId: string;
  keyPrefix: string;
  keyHash: string;
  encryptedKey: string;
}

export interface GivenAccountOptions {
  accountId?: string;
  plan?: PlanId;
  addOns?: AddOnId[];
  key?: GivenApiKey;
  /** When the account was opened (and its key issued); now by default. */
  now?: string;
}

/**
 * An open account, decided by the account decider from the commands an operator sends, so its events are the ones
 * the service itself would have stored. Starter plan, no add-ons, no key unless asked.
 */
export async function givenAccount(store: EventStore, options: GivenAccountOptions = {}): Promise<string> {
  const accountId = options.accountId ?? randomUUID();
  const now = options.now ?? new Date().toISOString();
  const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, new RandomIds());
  await accounts.handle(accountId, {
    type: 'OpenAccount',
    data: {
      accountId,
      name: 'A',
      email: 'a@example.com',
      plan: DEFAULT_PLAN_CATALOG[options.plan ?? 'starter'],
      addOns: options.addOns ?? [],
      now,
    },
  });
  if (options.key !== undefined)
    await accounts.handle(accountId, { type: 'IssueApiKey', data: { ...options.key, now } });
  return accountId;
}
