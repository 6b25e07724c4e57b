import { parseArgs } from 'node:util';
import type { Container } from '../composition/container.js';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import type { ApiKeySecrets } from '../../application/ports/api-key-secrets.js';
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

/** What each command works with: the account services, the options given, and where notes go. */
interface AdminTools {
  readonly admin: AccountAdministration;
  readonly readModel: AccountReadModel;
  readonly secrets: ApiKeySecrets;
  readonly io: CliOutput;
  readonly values: AdminOptions;
  /** The `--account` given, required by every command that names one. */
  readonly account: () => string;
}

type AdminOptions = ReturnType<typeof parseOptions>;

/** Each command, by name: what it prints. */
const COMMANDS: Readonly<Record<string, (tools: AdminTools) => Promise<unknown>>> = {
  'create-account': async ({ admin, readModel, secrets, io, values }) => {
    const created = await admin.openAccount({
      name: required(values.name, '--name'),
      email: required(values.email, '--email'),
      planId: oneOf(values.plan ?? 'free', PLAN_IDS, '--plan') as PlanId,
      addOns: (values['add-on'] ?? []).map((addOn) => oneOf(addOn, ADD_ON_IDS, '--add-on') as AddOnId),
    });
    await waitForKey(readModel, secrets.hash(created.apiKey), io);
    return created;
  },
  'issue-key': async ({ admin, readModel, secrets, io, account }) => {
    const issued = await admin.issueKey(account());
    await waitForKey(readModel, secrets.hash(issued.apiKey), io);
    return { accountId: account(), ...issued };
  },
  'revoke-key': async ({ admin, values, account }) => {
    await admin.revokeKey(account(), required(values.key, '--key'));
    return { accountId: account(), revoked: values.key };
  },
  'change-plan': async ({ admin, values, account }) => {
    await admin.changePlan(account(), oneOf(required(values.plan, '--plan'), PLAN_IDS, '--plan') as PlanId);
    return { accountId: account(), plan: values.plan };
  },
  'cancel-plan': async ({ admin, account }) => {
    await admin.scheduleCancellation(account());
    return { accountId: account(), cancellationScheduled: true };
  },
  'enable-add-on': (tools) => setAddOn(tools, true),
  'disable-add-on': (tools) => setAddOn(tools, false),
  grant: async ({ admin, values, account }) => {
    const feature = oneOf(required(values.feature, '--feature'), FEATURE_IDS, '--feature') as FeatureId;
    const units = Number(required(values.units, '--units'));
    await admin.grantExtraUnits(account(), feature, units, values.reason);
    return { accountId: account(), feature, units };
  },
  'list-accounts': async ({ readModel }) =>
    (await readModel.list()).map((view) => ({
      accountId: view.accountId,
      name: view.name,
      email: view.email,
      plan: view.state.plan?.id ?? null,
      addOns: view.state.addOns,
      apiKeys: view.state.apiKeys.map((key) => ({ keyId: key.keyId, revoked: key.revoked })),
    })),
};

async function run(args: string[], container: Container, io: CliOutput): Promise<unknown> {
  const [command, ...rest] = args;
  const values = reportedAsUsage(() => parseOptions(rest));
  const tools: AdminTools = {
    admin: container.resolve(AccountAdministration),
    readModel: container.resolve(TOKENS.accountReadModel),
    secrets: container.resolve(TOKENS.apiKeySecrets),
    io,
    values,
    account: () => required(values.account, '--account'),
  };
  if (!Object.hasOwn(COMMANDS, command)) throw new UsageError(`Unknown command: ${command}`);
  return COMMANDS[command](tools);
}

function parseOptions(args: string[]) {
  return parseArgs({
    args,
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
  }).values;
}

async function setAddOn({ admin, values, account }: AdminTools, enabled: boolean): Promise<unknown> {
  const addOn = oneOf(required(values['add-on']?.[0], '--add-on'), ADD_ON_IDS, '--add-on') as AddOnId;
  await admin.setAddOn(account(), addOn, enabled);
  return { accountId: account(), addOn, enabled };
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
