import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import type { AccountReadModel } from '../../application/ports/read-models.js';
import type { ApiKeySecrets } from '../../application/ports/api-key-secrets.js';
import { ADD_ON_IDS, type AddOnId, FEATURE_IDS, type FeatureId, PLAN_IDS, type PlanId } from '../../domain/account/plan.js';
import { DomainError } from '../../domain/errors.js';
import { loadConfig } from '../config/config.js';
import { createContainer, TOKENS } from '../container.js';
import { createLogger } from '../observability/create-logger.js';

const USAGE = `Usage: npm run --silent admin -- <command> [options]

Commands (each prints JSON on stdout):
  create-account --name NAME --email EMAIL [--plan free|starter|growth|scale|custom] [--add-on client_download|channel_list ...]
      Opens an account and issues its first API key. The key is shown only here.
  issue-key --account ID              Issues another key for the account (shown once).
  revoke-key --account ID --key KEY_ID
  change-plan --account ID --plan PLAN
  cancel-plan --account ID            Schedules a fall-back to the free plan at the end of the period.
  enable-add-on --account ID --add-on ADDON
  disable-add-on --account ID --add-on ADDON
  grant --account ID --feature FEATURE --units N [--reason TEXT]
  list-accounts`;

class UsageError extends Error {}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === undefined || command === '--help' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      plan: { type: 'string' },
      'add-on': { type: 'string', multiple: true },
      account: { type: 'string' },
      key: { type: 'string' },
      feature: { type: 'string' },
      units: { type: 'string' },
      reason: { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const { container, close } = await createContainer(config, logger);
  try {
    const admin = container.resolve(AccountAdministration);
    const readModel = container.resolve<AccountReadModel>(TOKENS.accountReadModel);
    const secrets = container.resolve<ApiKeySecrets>(TOKENS.apiKeySecrets);
    const account = () => required(values.account, '--account');
    let output: unknown;
    switch (command) {
      case 'create-account': {
        const created = await admin.openAccount({
          name: required(values.name, '--name'),
          email: required(values.email, '--email'),
          planId: oneOf(values.plan ?? 'free', PLAN_IDS, '--plan') as PlanId,
          addOns: (values['add-on'] ?? []).map((addOn) => oneOf(addOn, ADD_ON_IDS, '--add-on') as AddOnId),
        });
        await waitForKey(readModel, secrets.hash(created.apiKey));
        output = created;
        break;
      }
      case 'issue-key': {
        const issued = await admin.issueKey(account());
        await waitForKey(readModel, secrets.hash(issued.apiKey));
        output = { accountId: account(), ...issued };
        break;
      }
      case 'revoke-key':
        await admin.revokeKey(account(), required(values.key, '--key'));
        output = { accountId: account(), revoked: values.key };
        break;
      case 'change-plan':
        await admin.changePlan(account(), oneOf(required(values.plan, '--plan'), PLAN_IDS, '--plan') as PlanId);
        output = { accountId: account(), plan: values.plan };
        break;
      case 'cancel-plan':
        await admin.scheduleCancellation(account());
        output = { accountId: account(), cancellationScheduled: true };
        break;
      case 'enable-add-on':
      case 'disable-add-on': {
        const addOn = oneOf(required(values['add-on']?.[0], '--add-on'), ADD_ON_IDS, '--add-on') as AddOnId;
        await admin.setAddOn(account(), addOn, command === 'enable-add-on');
        output = { accountId: account(), addOn, enabled: command === 'enable-add-on' };
        break;
      }
      case 'grant': {
        const feature = oneOf(required(values.feature, '--feature'), FEATURE_IDS, '--feature') as FeatureId;
        const units = Number(required(values.units, '--units'));
        await admin.grantExtraUnits(account(), feature, units, values.reason);
        output = { accountId: account(), feature, units };
        break;
      }
      case 'list-accounts':
        output = (await readModel.list()).map((view) => ({
          accountId: view.accountId,
          name: view.name,
          email: view.email,
          plan: view.state.plan?.id ?? null,
          addOns: view.state.addOns,
          apiKeys: view.state.apiKeys.map((key) => ({ keyId: key.keyId, revoked: key.revoked })),
        }));
        break;
      default:
        throw new UsageError(`Unknown command: ${command}`);
    }
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } finally {
    await close();
  }
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${flag} is required`);
  return value;
}

function oneOf(value: string, allowed: readonly string[], flag: string): string {
  if (!allowed.includes(value)) throw new UsageError(`${flag} must be one of: ${allowed.join(', ')}`);
  return value;
}

/** A new key works once the projector has recorded it; wait briefly so the printed key is usable at once. */
async function waitForKey(readModel: AccountReadModel, keyHash: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if ((await readModel.findActiveKey(keyHash)) !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.stderr.write('Note: the key is recorded but not yet visible to the API; is the service (projector role) running?\n');
}

main().catch((error: unknown) => {
  const known = error instanceof UsageError || error instanceof DomainError || (error instanceof Error && error.message.startsWith('Invalid configuration'));
  process.stderr.write(`${known ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
  if (error instanceof UsageError) process.stderr.write(`\n${USAGE}\n`);
  process.exit(known ? 2 : 1);
});
