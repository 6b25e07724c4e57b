import { parseArgs } from 'node:util';
import type { Container } from '../composition/container.js';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import type { AccountReadModel } from '../../application/ports/read-models.js';
import {
  ADD_ON_IDS,
  type AddOnId,
  FEATURE_IDS,
  type FeatureId,
  PLAN_IDS,
  type PlanId,
} from '../../domain/account/plan.js';
import { DomainError } from '../../domain/errors.js';
import { TOKENS } from '../composition/tokens.js';
import type { CliOutput } from './cli-command.js';

export const ADMIN_USAGE = `Usage: npm run --silent admin -- <command> [options]

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

/** `npm run admin -- <command> …`, run against a composed service: exit 0, 2 for bad input or a refused command, 1 for a failure. */
export async function adminCommand(args: string[], container: Container, io: CliOutput): Promise<number> {
  if (args.length === 0) {
    io.err(`${ADMIN_USAGE}\n`);
    return 2;
  }
  try {
    io.out(`${JSON.stringify(await run(args, container, io), null, 2)}\n`);
    return 0;
  } catch (error) {
    const known = error instanceof UsageError || error instanceof DomainError;
    io.err(`${known ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
    if (error instanceof UsageError) io.err(`\n${ADMIN_USAGE}\n`);
    return known ? 2 : 1;
  }
}

async function run(args: string[], container: Container, io: CliOutput): Promise<unknown> {
  const [command, ...rest] = args;
  const { values } = reportedAsUsage(() =>
    parseArgs({
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
    }),
  );
  const admin = container.resolve(AccountAdministration);
  const readModel = container.resolve(TOKENS.accountReadModel);
  const secrets = container.resolve(TOKENS.apiKeySecrets);
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
      await waitForKey(readModel, secrets.hash(created.apiKey), io);
      output = created;
      break;
    }
    case 'issue-key': {
      const issued = await admin.issueKey(account());
      await waitForKey(readModel, secrets.hash(issued.apiKey), io);
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
  return output;
}

/** parseArgs's complaints (unknown or malformed options) are bad usage. */
function reportedAsUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
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
async function waitForKey(readModel: AccountReadModel, keyHash: string, io: CliOutput): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if ((await readModel.findActiveKey(keyHash)) !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  io.err('Note: the key is recorded but not yet visible to the API; is the service (projector role) running?\n');
}
