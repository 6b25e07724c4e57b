import { parseArgs } from 'node:util';
import type { Container } from '../composition/container.js';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import { awaitKeyUsable } from '../../application/accounts/await-key-usable.js';
import { pollUntil } from '../../application/poll-until.js';
import { OperatorTokens } from '../../application/operators/operator-tokens.js';
import { OPERATOR_SCOPES, type OperatorScope } from '../../domain/operator-token/operator-token.js';
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
import { eraseAccount, rewrapDataKeys, sealStoredEvents } from './personal-data-commands.js';

export const ADMIN_USAGE = `Usage: npm run --silent admin -- <command> [options]

Commands (each prints JSON on stdout):
  create-account --name NAME --email EMAIL [--plan free|starter|growth|scale|custom] [--add-on client_download|channel_list ...]
      Opens an account and issues its first API key. The key is shown only here.
  issue-key --account ID [--name NAME] [--read-only]
      Issues another key for the account (shown once); a read-only one polls and lists, nothing else.
  revoke-key --account ID --key KEY_ID
  change-plan --account ID --plan PLAN
  cancel-plan --account ID            Schedules a fall-back to the free plan at the end of the period.
  enable-add-on --account ID --add-on ADDON
  disable-add-on --account ID --add-on ADDON
  grant --account ID --feature FEATURE --units N [--reason TEXT]
  suspend --account ID --reason TEXT  Its keys answer 403 with the reason until it is reactivated.
  reactivate --account ID
  close --account ID [--erase]        For good: its keys answer 403; jobs under way still finish and are charged.
      With --erase (also on a closed account): its personal data is erased for good; amounts stay.
  rotate-master-key                   Wraps every data key under MASTER_KEY (the old one set in PREVIOUS_MASTER_KEYS).
  seal-stored-events                  Seals, in place, personal data that events written before sealing hold.
  list-accounts
  issue-operator-token --name NAME --scope read|write
      Issues a token for the admin API (/admin/v1). The token is shown only here.
  revoke-operator-token --token TOKEN_ID
  list-operator-tokens`;

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
  readonly operators: OperatorTokens;
  readonly readModel: AccountReadModel;
  readonly secrets: ApiKeySecrets;
  readonly io: CliOutput;
  readonly container: Container;
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
    if (!(await awaitKeyUsable(readModel, secrets, created.apiKey))) io.err(PROJECTOR_NOTE);
    return created;
  },
  'issue-key': async ({ admin, readModel, secrets, io, account, values }) => {
    const issued = await admin.issueKey(account(), values.name, values['read-only'] === true);
    if (!(await awaitKeyUsable(readModel, secrets, issued.apiKey))) io.err(PROJECTOR_NOTE);
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
  suspend: async ({ admin, values, account }) => {
    await admin.suspend(account(), required(values.reason, '--reason'));
    return { accountId: account(), status: 'suspended' };
  },
  reactivate: async ({ admin, account }) => {
    await admin.reactivate(account());
    return { accountId: account(), status: 'active' };
  },
  close: async ({ admin, account, values, container }) => {
    if (values.erase === true)
      return { ...(await eraseAccount(container, admin, account())), status: 'closed', erased: true };
    await admin.close(account());
    return { accountId: account(), status: 'closed' };
  },
  'rotate-master-key': async ({ container }) => rewrapDataKeys(container),
  'seal-stored-events': async ({ container }) => sealStoredEvents(container),
  'issue-operator-token': async ({ operators, values, io }) => {
    const scope = oneOf(required(values.scope, '--scope'), OPERATOR_SCOPES, '--scope') as OperatorScope;
    const issued = await operators.issue(required(values.name, '--name'), scope);
    if ((await pollUntil(() => operators.isUsable(issued.token), Boolean, 10_000)) === null) io.err(PROJECTOR_NOTE);
    return issued;
  },
  'revoke-operator-token': async ({ operators, values }) => {
    const tokenId = required(values.token, '--token');
    await operators.revoke(tokenId);
    return { revoked: tokenId };
  },
  'list-operator-tokens': async ({ operators }) => operators.list(),
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
    // Recorded in the events as done from the shell: the CLI has no token.
    admin: container.resolve(AccountAdministration).by('cli'),
    operators: container.resolve(OperatorTokens),
    readModel: container.resolve(TOKENS.accountReadModel),
    secrets: container.resolve(TOKENS.apiKeySecrets),
    io,
    container,
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
      scope: { type: 'string' },
      'read-only': { type: 'boolean' },
      token: { type: 'string' },
      erase: { type: 'boolean' },
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

const PROJECTOR_NOTE =
  'Note: the key is recorded but not yet visible to the API; is the service (projector role) running?\n';
