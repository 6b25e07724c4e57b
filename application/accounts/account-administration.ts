import type { AddOnId, FeatureId, PlanId } from '../../domain/account/plan.js';
import type { AccountCommandHandler } from './account-commands.js';
import type { ApiKeySecrets } from '../ports/api-key-secrets.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';
import type { PlanCatalog } from '../ports/plan-catalog.js';

export interface IssuedKey {
  keyId: string;
  /** Shown once; only its hash and its encryption are kept. */
  apiKey: string;
}

/** What operators do to accounts (through the admin CLI). */
export class AccountAdministration {
  constructor(
    private readonly accounts: AccountCommandHandler,
    private readonly plans: PlanCatalog,
    private readonly secrets: ApiKeySecrets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async openAccount(input: {
    name: string;
    email: string;
    planId: PlanId;
    addOns: AddOnId[];
  }): Promise<{ accountId: string } & IssuedKey> {
    const accountId = this.ids.next();
    await this.accounts.handle(accountId, {
      type: 'OpenAccount',
      data: {
        accountId,
        name: input.name,
        email: input.email,
        plan: this.plans[input.planId],
        addOns: input.addOns,
        now: this.now(),
      },
    });
    return { accountId, ...(await this.issueKey(accountId)) };
  }

  async issueKey(accountId: string, name?: string): Promise<IssuedKey> {
    const keyId = this.ids.next();
    const { key, keyPrefix } = this.secrets.generate();
    await this.accounts.handle(accountId, {
      type: 'IssueApiKey',
      data: {
        keyId,
        keyPrefix,
        keyHash: this.secrets.hash(key),
        encryptedKey: this.secrets.encrypt(key),
        now: this.now(),
        ...(name === undefined ? {} : { name }),
      },
    });
    return { keyId, apiKey: key };
  }

  async revokeKey(accountId: string, keyId: string): Promise<void> {
    await this.accounts.handle(accountId, { type: 'RevokeApiKey', data: { keyId, now: this.now() } });
  }

  async changePlan(accountId: string, planId: PlanId): Promise<void> {
    await this.accounts.handle(accountId, { type: 'ChangePlan', data: { plan: this.plans[planId], now: this.now() } });
  }

  async scheduleCancellation(accountId: string): Promise<void> {
    await this.accounts.handle(accountId, {
      type: 'ScheduleCancellation',
      data: { fallbackPlan: this.plans.free, now: this.now() },
    });
  }

  async setAddOn(accountId: string, addOn: AddOnId, enabled: boolean): Promise<void> {
    await this.accounts.handle(accountId, {
      type: enabled ? 'EnableAddOn' : 'DisableAddOn',
      data: { addOn, now: this.now() },
    });
  }

  async grantExtraUnits(accountId: string, feature: FeatureId, units: number, reason?: string): Promise<void> {
    await this.accounts.handle(accountId, {
      type: 'GrantExtraUnits',
      data: { feature, units, reason, now: this.now() },
    });
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
