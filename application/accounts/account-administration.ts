import type { AccountCommand } from '../../domain/account/commands.js';
import type { AccountState } from '../../domain/account/state.js';
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

export interface AdministrationDependencies {
  readonly accounts: AccountCommandHandler;
  readonly plans: PlanCatalog;
  readonly secrets: ApiKeySecrets;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

/** Who asks (named in the events' metadata, so the audit trail says who did what), and how a retry is known. */
interface AdministrationRequest {
  actor?: string;
  /** A retried request's writes derive the same event ids, which the store refuses as duplicates. */
  idempotencySeed?: string;
}

/** What operators (the admin API and CLI) and account holders (their own keys) do to accounts. */
export class AccountAdministration {
  constructor(
    private readonly deps: AdministrationDependencies,
    private readonly request: AdministrationRequest = {},
  ) {}

  /** Commands this writes so far: each one's event ids are seeded apart. */
  private commands = 0;
  /** The account's state after this instance's last command: what the write left, before any read model shows it. */
  writtenState: AccountState | null = null;

  /** The same operations, for one request: recorded as done by `actor`, with event ids seeded by `idempotencySeed`. */
  by(actor: string, idempotencySeed?: string): AccountAdministration {
    return new AccountAdministration(this.deps, { actor, idempotencySeed });
  }

  async openAccount(input: {
    name: string;
    email: string;
    planId: PlanId;
    addOns: AddOnId[];
  }): Promise<{ accountId: string } & IssuedKey> {
    const accountId = this.deps.ids.next();
    await this.handle(accountId, {
      type: 'OpenAccount',
      data: {
        accountId,
        name: input.name,
        email: input.email,
        plan: this.deps.plans[input.planId],
        addOns: input.addOns,
        now: this.now(),
      },
    });
    return { accountId, ...(await this.issueKey(accountId)) };
  }

  /** `readOnly`: the key may poll and list, never submit or change anything. */
  async issueKey(accountId: string, name?: string, readOnly = false): Promise<IssuedKey> {
    const keyId = this.deps.ids.next();
    const { key, keyPrefix } = this.deps.secrets.generate();
    await this.handle(accountId, {
      type: 'IssueApiKey',
      data: {
        keyId,
        keyPrefix,
        keyHash: this.deps.secrets.hash(key),
        encryptedKey: this.deps.secrets.encrypt(key),
        now: this.now(),
        ...(name === undefined ? {} : { name }),
        ...(readOnly ? { readOnly } : {}),
      },
    });
    return { keyId, apiKey: key };
  }

  async revokeKey(accountId: string, keyId: string): Promise<void> {
    await this.handle(accountId, { type: 'RevokeApiKey', data: { keyId, now: this.now() } });
  }

  async changePlan(accountId: string, planId: PlanId): Promise<void> {
    await this.handle(accountId, { type: 'ChangePlan', data: { plan: this.deps.plans[planId], now: this.now() } });
  }

  async scheduleCancellation(accountId: string): Promise<void> {
    await this.handle(accountId, {
      type: 'ScheduleCancellation',
      data: { fallbackPlan: this.deps.plans.free, now: this.now() },
    });
  }

  async setAddOn(accountId: string, addOn: AddOnId, enabled: boolean): Promise<void> {
    await this.handle(accountId, {
      type: enabled ? 'EnableAddOn' : 'DisableAddOn',
      data: { addOn, now: this.now() },
    });
  }

  async grantExtraUnits(accountId: string, feature: FeatureId, units: number, reason?: string): Promise<void> {
    await this.handle(accountId, {
      type: 'GrantExtraUnits',
      data: { feature, units, reason, now: this.now() },
    });
  }

  async suspend(accountId: string, reason: string): Promise<void> {
    await this.handle(accountId, { type: 'SuspendAccount', data: { reason, now: this.now() } });
  }

  async reactivate(accountId: string): Promise<void> {
    await this.handle(accountId, { type: 'ReactivateAccount', data: { now: this.now() } });
  }

  /** For good: the account's keys answer 403 from then on; jobs under way still finish and are charged. */
  async close(accountId: string): Promise<void> {
    await this.handle(accountId, { type: 'CloseAccount', data: { now: this.now() } });
  }

  /** Records that the closed account's data key is destroyed (EraseAccount does the erasing, then this). */
  async erase(accountId: string): Promise<void> {
    await this.handle(accountId, { type: 'EraseAccount', data: { now: this.now() } });
  }

  private async handle(accountId: string, command: AccountCommand): Promise<void> {
    const { actor, idempotencySeed } = this.request;
    const step = this.commands++;
    const { state } = await this.deps.accounts.handle(accountId, command, {
      ...(actor === undefined ? {} : { actor }),
      ...(idempotencySeed === undefined ? {} : { eventIdSeed: `${idempotencySeed}:${step}` }),
    });
    this.writtenState = state;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
